-- Identities beyond one project, who looked at the key, and versioned releases.
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

-- Versioned releases: release N of a project records, per released document, the SHA-256 of its pseudonymized
-- output and its replaced spans (offsets and category only, never an original), so release N+1 can list what
-- changed; a document withdrawn after its release is recorded with who, when and why and left out from then on.
CREATE TABLE IF NOT EXISTS project_release (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    number      integer NOT NULL,
    note        text NOT NULL DEFAULT '',
    created_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, number),
    CONSTRAINT project_release_number CHECK (number >= 1),
    CONSTRAINT project_release_note_length CHECK (length(note) <= 1000)
);

CREATE TABLE IF NOT EXISTS release_document (
    release_id     bigint NOT NULL REFERENCES project_release (id) ON DELETE CASCADE,
    document_id    bigint NOT NULL,
    name           text NOT NULL,
    output_sha256  text NOT NULL,
    spans          jsonb NOT NULL,
    PRIMARY KEY (release_id, document_id)
);

CREATE TABLE IF NOT EXISTS release_withdrawal (
    id           bigserial PRIMARY KEY,
    project_id   bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id  bigint NOT NULL,
    name         text NOT NULL,
    after_release integer NOT NULL,
    reason       text NOT NULL,
    account      text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (project_id, document_id),
    CONSTRAINT release_withdrawal_reason CHECK (length(btrim(reason)) BETWEEN 3 AND 1000)
);
