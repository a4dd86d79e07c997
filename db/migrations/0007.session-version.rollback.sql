ALTER TABLE account DROP COLUMN IF EXISTS session_version;
