-- Per-project learned model (psan/store/project_model.py): the token classifier trained on the
-- project's decisions, in psan's safe byte format signed with an HMAC key derived from SECRET_KEY
-- (models not written by this app are refused).  Only the latest models are kept (the app deletes
-- older rows when it stores a new one).  meta: trained_at, train_seconds, documents, tokens,
-- decisions_count, decision_log_id (newest decision the training saw), threshold …
CREATE TABLE IF NOT EXISTS project_model (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    model       bytea NOT NULL,
    meta        jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS project_model_project_idx ON project_model (project_id, id DESC);
-- model predictions are named_entity rows with source 'model'; a re-prediction replaces them
CREATE INDEX IF NOT EXISTS named_entity_model_idx ON named_entity (document_id) WHERE source = 'model';
