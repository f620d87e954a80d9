-- Retention of the SDKs' data reports (IM_SDK_REPORTS_RETENTION_DAYS): the purge job picks the oldest rows
-- by when the server received them (the client's sendts can be anything), a batch at a time. Without this
-- index every batch would scan the whole table to find them.
CREATE INDEX im_sdk_reports_received ON im_sdk_reports (received_at);
