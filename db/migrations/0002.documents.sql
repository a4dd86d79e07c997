-- documents: when the current tokens/NEs were written, so processes can cache a recognized
-- document (tokens never change until the next recognition).
ALTER TABLE document ADD COLUMN IF NOT EXISTS recognized_at timestamptz;
