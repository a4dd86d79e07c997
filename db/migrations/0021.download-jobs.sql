-- Downloads prepared in the background (psan.store.download_jobs): a large document's or project's
-- output is rendered by the worker, not inside a web request that uWSGI's harakiri would kill.
CREATE TABLE IF NOT EXISTS download_job (
    id           bigserial PRIMARY KEY,
    account_id   bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    project_id   bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id  bigint REFERENCES document (id) ON DELETE CASCADE,
    kind         text NOT NULL,
    status       text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
    stage        text NOT NULL DEFAULT '',
    filename     text NOT NULL,
    mimetype     text NOT NULL,
    error        text,
    data         bytea,
    size         bigint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz
);
CREATE INDEX IF NOT EXISTS download_job_account_idx ON download_job (account_id, id);
CREATE INDEX IF NOT EXISTS download_job_created_idx ON download_job (created_at);
