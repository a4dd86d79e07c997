-- Identities beyond one project, and who looked at the key.
-- key_ring: a shared identity registry; a project linked to one (project.key_ring_id) stores the identities of
-- its automatic entities there, so the same real entity gets the same surrogate in every project of the ring
-- (label identities stay the project's: labels are project-local).
-- key_access_log: every key export and every de-pseudonymization, with who, when and why (a reason is required).
CREATE TABLE IF NOT EXISTS key_ring (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT key_ring_name_length CHECK (length(name) BETWEEN 1 AND 200)
);

ALTER TABLE project ADD COLUMN IF NOT EXISTS key_ring_id bigint REFERENCES key_ring (id) ON DELETE SET NULL;

CREATE TABLE IF NOT EXISTS key_ring_identity (
    key_ring_id  bigint NOT NULL REFERENCES key_ring (id) ON DELETE CASCADE,
    entity_key   text NOT NULL,
    identity     jsonb NOT NULL,
    PRIMARY KEY (key_ring_id, entity_key),
    CONSTRAINT key_ring_identity_entity_key_length CHECK (length(entity_key) BETWEEN 1 AND 200)
);

CREATE TABLE IF NOT EXISTS key_access_log (
    id           bigserial PRIMARY KEY,
    project_id   bigint REFERENCES project (id) ON DELETE SET NULL,
    document_id  bigint REFERENCES document (id) ON DELETE SET NULL,
    account_id   bigint REFERENCES account (id) ON DELETE SET NULL,
    account      text NOT NULL,
    action       text NOT NULL,
    reason       text NOT NULL,
    detail       jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT key_access_log_action CHECK (action IN ('export', 'depseudonymize')),
    CONSTRAINT key_access_log_reason CHECK (length(btrim(reason)) BETWEEN 3 AND 1000)
);
CREATE INDEX IF NOT EXISTS key_access_log_project_idx ON key_access_log (project_id, id DESC);
