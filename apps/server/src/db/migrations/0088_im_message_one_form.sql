-- A message sent through the realtime gateway is stored once, as the client's protobuf bytes (module im,
-- issue 9): its JSON form was a second copy of the same message in every row and in the WAL, built and
-- parsed for every message. The JSON form is rebuilt from the bytes when a REST reply needs it
-- (store/messages.ts). Messages sent through the REST API, and edited ones, keep the JSON form only.
ALTER TABLE im_messages ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE im_messages ADD CONSTRAINT im_messages_one_form CHECK (payload IS NOT NULL OR body_pb IS NOT NULL);
