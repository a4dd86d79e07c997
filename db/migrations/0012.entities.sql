-- Entities (psan/store/entities.py): the recognized mentions of one person, organisation, place …
-- grouped within a document and across the project by psan.tool.entities (same lemma, partial
-- names, titles, initials, aliases).  key: the automatic entity id (a digest of category and
-- canonical form, equal across documents) or 'manual:…' for an entity an annotator split off.
-- merged_into: an entity an annotator merged into another; new mentions with its key join that one.
-- A mention is a token span of a document; manual = set by a merge or split (recomputing the
-- document's entities after a new recognition keeps it while the span still exists).
CREATE TABLE IF NOT EXISTS entity (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    key         text NOT NULL,
    category    text NOT NULL,
    merged_into bigint REFERENCES entity (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entity_key_length CHECK (length(key) BETWEEN 1 AND 200)
);
CREATE UNIQUE INDEX IF NOT EXISTS entity_project_key ON entity (project_id, key);

CREATE TABLE IF NOT EXISTS entity_mention (
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    entity_id   bigint NOT NULL REFERENCES entity (id) ON DELETE CASCADE,
    manual      boolean NOT NULL DEFAULT false,
    PRIMARY KEY (document_id, first_token, end_token),
    CONSTRAINT entity_mention_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE INDEX IF NOT EXISTS entity_mention_entity_idx ON entity_mention (entity_id);

-- The project's pseudonym key (psan/store/pseudonym_key.py): one surrogate identity per entity key
-- (a label 'label:<id>' or an automatic entity id), as JSON: kind, gender, for persons the surrogate
-- of each given name and of the surname, for places the base name, else the value per form.
-- Personal data (the surrogates' originals are derivable with the documents): admins only.
CREATE TABLE IF NOT EXISTS pseudonym_key (
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    entity_key  text NOT NULL,
    identity    jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, entity_key),
    CONSTRAINT pseudonym_key_entity_key_length CHECK (length(entity_key) BETWEEN 1 AND 200)
);
