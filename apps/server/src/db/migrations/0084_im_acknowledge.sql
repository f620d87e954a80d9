-- Devices' acknowledgements of sync-queue entries (module im, gateway/acks.ts), many devices' at once:
-- an entry no other recent device of its user still waits for (other than the device whose own send it
-- copies, or one that appeared after it) is removed with the marks other devices left on it; the others
-- keep the acknowledging device's mark until the rest have read them. Entries of another user are left
-- alone.
--
-- A function for the planner settings it runs with: the statement is planned once per connection and its
-- plan kept, and a plan made while im_inbox was small (a new database; PostgreSQL without autovacuum and
-- the embedded database never refresh it) joined by scanning the whole table. Nothing vacuums im_inbox
-- there, so the table grows with every message ever queued and that scan with it; with these settings
-- every entry is found through its primary key whatever the table's size looked like. And the plan is
-- always the generic one: with a few entries (a quiet gateway) a plan for the actual arrays looks
-- cheaper, and PostgreSQL would plan the statement anew at every call (about 0.2 ms each).
CREATE FUNCTION im_acknowledge(users text[], resources text[], ids bigint[], since timestamptz) RETURNS void
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  WITH e AS MATERIALIZED (
    SELECT x.id, x.r,
      EXISTS (
        SELECT 1 FROM im_devices d
        WHERE d.username = x.u AND d.resource <> x.r AND d.last_seen_at >= since AND d.first_inbox_id < x.id
          AND (i.skip_resource IS NULL OR d.resource <> i.skip_resource)
          AND NOT EXISTS (SELECT 1 FROM im_inbox_acks a WHERE a.inbox_id = x.id AND a.resource = d.resource)) AS waits
    FROM unnest(users, resources, ids) AS x(u, r, id)
    JOIN im_inbox i ON i.id = x.id AND i.username = x.u),
  done AS (DELETE FROM im_inbox i USING e WHERE i.id = e.id AND NOT e.waits RETURNING i.id),
  unmarked AS (DELETE FROM im_inbox_acks a USING done WHERE a.inbox_id = done.id)
  INSERT INTO im_inbox_acks (inbox_id, resource)
  SELECT e.id, e.r FROM e WHERE e.waits
  ON CONFLICT (inbox_id, resource) DO NOTHING;
END $$;
