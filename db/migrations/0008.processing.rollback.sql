-- PostgreSQL cannot drop an enum value: PROCESSING stays in the type, unused (documents go back to NEW).
UPDATE document SET status = 'NEW' WHERE status = 'PROCESSING';
ALTER TABLE document DROP COLUMN IF EXISTS attempts;
ALTER TABLE document DROP COLUMN IF EXISTS heartbeat_at;
ALTER TABLE document DROP COLUMN IF EXISTS queued_at;
ALTER TABLE project DROP COLUMN IF EXISTS reannotate_pending_since;
