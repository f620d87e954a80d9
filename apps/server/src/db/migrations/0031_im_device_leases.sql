-- Connected devices across server processes (module im): a process holds a lease on each device it has
-- connected and renews the leases of its devices every minute; a lease not renewed (the process died)
-- lapses by itself. The device limit counts the live leases of every process, not only its own sockets.
ALTER TABLE im_devices ADD COLUMN online_node text;
ALTER TABLE im_devices ADD COLUMN online_until timestamptz;
CREATE INDEX im_devices_online_node ON im_devices (online_node) WHERE online_node IS NOT NULL;
