-- Personal API tokens: a script acts as its owner's account through /api/v1/ (Authorization: Bearer psan_…).
-- Only a SHA-256 of the secret is stored (the secret is shown once, when the token is made); a token has one scope
-- (read, annotate or admin) and either every project or the chosen ones; revoking keeps the row (and its log).
-- api_token_use: every authenticated use (who, when, which endpoint), kept after the token is revoked.
CREATE TABLE IF NOT EXISTS api_token (
    id            bigserial PRIMARY KEY,
    account_id    bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    name          text NOT NULL,
    scope         text NOT NULL,
    all_projects  boolean NOT NULL DEFAULT false,
    secret_hash   text NOT NULL UNIQUE,
    prefix        text NOT NULL,
    created_by    bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz,
    CONSTRAINT api_token_name_length CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT api_token_scope CHECK (scope IN ('read', 'annotate', 'admin'))
);
CREATE INDEX IF NOT EXISTS api_token_account ON api_token (account_id);

CREATE TABLE IF NOT EXISTS api_token_project (
    token_id    bigint NOT NULL REFERENCES api_token (id) ON DELETE CASCADE,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    PRIMARY KEY (token_id, project_id)
);

CREATE TABLE IF NOT EXISTS api_token_use (
    id          bigserial PRIMARY KEY,
    token_id    bigint NOT NULL REFERENCES api_token (id) ON DELETE CASCADE,
    account_id  bigint REFERENCES account (id) ON DELETE SET NULL,
    used_at     timestamptz NOT NULL DEFAULT now(),
    method      text NOT NULL,
    endpoint    text NOT NULL,
    path        text NOT NULL
);
CREATE INDEX IF NOT EXISTS api_token_use_token ON api_token_use (token_id, used_at DESC);
