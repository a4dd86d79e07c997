DROP TABLE IF EXISTS release_withdrawal;
DROP TABLE IF EXISTS release_document;
DROP TABLE IF EXISTS project_release;
DROP TABLE IF EXISTS key_access_log;
DROP TABLE IF EXISTS key_ring_identity;
ALTER TABLE project DROP COLUMN IF EXISTS key_ring_id;
DROP TABLE IF EXISTS key_ring;
