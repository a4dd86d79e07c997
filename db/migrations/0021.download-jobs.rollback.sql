DROP TABLE IF EXISTS download_job;
