-- How far a background download is (documents done of total), shown on its page while it runs.
ALTER TABLE download_job ADD COLUMN IF NOT EXISTS done integer NOT NULL DEFAULT 0;
ALTER TABLE download_job ADD COLUMN IF NOT EXISTS total integer NOT NULL DEFAULT 0;
