-- Issue 44, item 2: an interrupted card-secret import closes. An import runs inside one server process; a
-- process killed mid-way left its batch `importing` for ever. The importer now touches `heartbeat_at` with
-- every chunk it lands and every 30 s while it reads, and a job (at start and every minute) closes batches
-- whose importer is gone: on the embedded database every batch last touched before this process started, on
-- a PostgreSQL server shared by several nodes every batch untouched for two minutes. Such a batch ends
-- `failed` with the counts it reached and a reason (`fail_reason`, a message key and its parameters) that
-- says how to resume: upload the same file again, the codes already stored are skipped as duplicates.
ALTER TABLE supply_card_batches ADD COLUMN heartbeat_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE supply_card_batches ADD COLUMN fail_reason jsonb;
CREATE INDEX supply_card_batches_importing_idx ON supply_card_batches (heartbeat_at) WHERE status = 'importing';
