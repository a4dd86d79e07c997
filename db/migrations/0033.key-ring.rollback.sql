DROP TABLE IF EXISTS key_access_log;
DROP TABLE IF EXISTS key_ring_identity;
ALTER TABLE project DROP COLUMN IF EXISTS key_ring_id;
DROP TABLE IF EXISTS key_ring;
