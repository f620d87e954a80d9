-- What one delivered message costs PostgreSQL, continued (module im, issue 9): index insertions were a
-- quarter of its work per message.

-- The sync queue is read and acknowledged by (user, queue): one key serves both. The entry's own id
-- index and the (username, queue, id) index were two insertions per entry; the acknowledgement now names
-- the queue (the device pulled it) and finds the entry by this key.
ALTER TABLE im_inbox DROP CONSTRAINT im_inbox_pkey;
DROP INDEX im_inbox_user_queue_idx;
ALTER TABLE im_inbox ADD PRIMARY KEY (username, queue, id);

-- Devices' acknowledgements, as in migration 0084 (same settings, same rules), with each entry's queue.
-- The entries no other recent device waits for go first, in one statement with the marks left on them;
-- only if some entries stayed (another device of the user has not read them, or they are not the
-- user's) does a second statement look at them again, to leave the acknowledging device's mark.
DROP FUNCTION im_acknowledge(text[], text[], bigint[], timestamptz);
CREATE FUNCTION im_acknowledge(users text[], resources text[], queues text[], ids bigint[], since timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  removed bigint;
BEGIN
  WITH done AS (
    DELETE FROM im_inbox i USING unnest(users, resources, queues, ids) AS x(u, r, q, id)
    WHERE i.username = x.u AND i.queue = x.q AND i.id = x.id
      AND NOT EXISTS (
        SELECT 1 FROM im_devices d
        WHERE d.username = x.u AND d.resource <> x.r AND d.last_seen_at >= since AND d.first_inbox_id < x.id
          AND (i.skip_resource IS NULL OR d.resource <> i.skip_resource)
          AND NOT EXISTS (SELECT 1 FROM im_inbox_acks a WHERE a.inbox_id = x.id AND a.resource = d.resource))
    RETURNING i.id),
  unmarked AS (DELETE FROM im_inbox_acks a USING done WHERE a.inbox_id = done.id)
  SELECT count(*) INTO removed FROM done;
  IF removed < cardinality(ids) THEN
    INSERT INTO im_inbox_acks (inbox_id, resource)
    SELECT x.id, x.r FROM unnest(users, resources, queues, ids) AS x(u, r, q, id)
    JOIN im_inbox i ON i.username = x.u AND i.queue = x.q AND i.id = x.id
    ON CONFLICT (inbox_id, resource) DO NOTHING;
  END IF;
END $$;
