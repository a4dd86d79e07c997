-- Work in progress is visible and recoverable (psan/store/processing.py): a worker claims a
-- document by setting PROCESSING and refreshes heartbeat_at while it runs; the sweeper
-- (psan/celery/sweeper.py) re-queues a document whose heartbeat went stale (worker killed) and
-- queues NEW documents that never reached the broker (Redis down at upload, per-project cap).
-- queued_at: when the document was last handed to the broker (NULL = not queued yet);
-- attempts: how many runs claimed it since the last upload/Retry (stops endless re-queuing).
-- The new enum value is not used in this migration (it could not be used in the same transaction).
ALTER TYPE document_status ADD VALUE IF NOT EXISTS 'PROCESSING' AFTER 'NEW';
ALTER TABLE document ADD COLUMN IF NOT EXISTS queued_at timestamptz;
ALTER TABLE document ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
ALTER TABLE document ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0;
-- documents already waiting were queued by the previous version
UPDATE document SET queued_at = updated_at WHERE status = 'NEW';
-- a project whose re-annotation could not be scheduled (Redis down after a decision): the sweeper
-- schedules it when Redis answers again, so no accepted rule change is lost
ALTER TABLE project ADD COLUMN IF NOT EXISTS reannotate_pending_since timestamptz;
