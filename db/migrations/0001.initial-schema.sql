-- psan initial schema: accounts, projects, documents with their tokens/sentences/NEs,
-- annotations, rules, labels, the decision log and annotation windows.
-- Token ranges are [first_token, end_token) (end exclusive), character offsets likewise.

CREATE TYPE account_role AS ENUM ('ADMIN', 'USER');
CREATE TYPE document_status AS ENUM ('NEW', 'RECOGNIZED', 'PRE_ANNOTATED', 'DONE', 'FAILED');
CREATE TYPE rule_type AS ENUM ('NE_TYPE', 'WORD_TYPE', 'LEMMA', 'PATTERN', 'MODEL');
CREATE TYPE decision AS ENUM ('PUBLIC', 'PRIVATE');

CREATE TABLE account (
    id              bigserial PRIMARY KEY,
    email           text NOT NULL,
    name            text NOT NULL DEFAULT '',
    password_hash   text,
    role            account_role NOT NULL DEFAULT 'USER',
    window_size     integer NOT NULL DEFAULT 300,
    active          boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_login_at   timestamptz,
    CONSTRAINT account_email_normalized CHECK (email = lower(btrim(email)) AND email LIKE '_%@_%'),
    CONSTRAINT account_email_length CHECK (length(email) <= 254),
    CONSTRAINT account_name_length CHECK (length(name) <= 200),
    CONSTRAINT account_window_size_range CHECK (window_size BETWEEN 10 AND 1000000)
);
CREATE UNIQUE INDEX account_email_key ON account (email);
CREATE INDEX account_active_admin_idx ON account (id) WHERE role = 'ADMIN' AND active;

-- small key/value store for instance-wide state (first-admin registration nonce …)
CREATE TABLE instance_setting (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE project (
    id                bigserial PRIMARY KEY,
    name              text NOT NULL,
    language          text NOT NULL DEFAULT 'en',
    pipeline          jsonb NOT NULL DEFAULT '{}'::jsonb,
    public_threshold  double precision NOT NULL DEFAULT 1,
    private_threshold double precision NOT NULL DEFAULT -1,
    seed              text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text),
    is_default        boolean NOT NULL DEFAULT false,
    created_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT project_name_length CHECK (length(name) BETWEEN 1 AND 200),
    CONSTRAINT project_language_code CHECK (language ~ '^[a-z]{2,3}$'),
    CONSTRAINT project_thresholds_ordered CHECK (private_threshold < public_threshold)
);
CREATE UNIQUE INDEX project_name_key ON project (name);
CREATE UNIQUE INDEX project_single_default ON project (is_default) WHERE is_default;

-- which annotators may annotate a project (admins may annotate every project)
CREATE TABLE project_member (
    project_id bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    account_id bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    PRIMARY KEY (project_id, account_id)
);
CREATE INDEX project_member_account_idx ON project_member (account_id);

INSERT INTO project (name, language, is_default) VALUES ('Default', 'en', true);

-- the thesis' "submission": the text itself lives here so workers need no shared filesystem
CREATE TABLE document (
    id              bigserial PRIMARY KEY,
    project_id      bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    name            text NOT NULL,
    language        text NOT NULL,
    status          document_status NOT NULL DEFAULT 'NEW',
    error           text,
    text            text NOT NULL,
    tagged_xml      text,
    token_count     integer NOT NULL DEFAULT 0,
    created_by      bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT document_name_length CHECK (length(name) BETWEEN 1 AND 255),
    CONSTRAINT document_language_code CHECK (language ~ '^[a-z]{2,3}$'),
    CONSTRAINT document_token_count_nonnegative CHECK (token_count >= 0)
);
CREATE INDEX document_project_status_idx ON document (project_id, status);

CREATE TABLE token (
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    idx         integer NOT NULL,
    start_char  integer NOT NULL,
    end_char    integer NOT NULL,
    PRIMARY KEY (document_id, idx),
    CONSTRAINT token_offsets CHECK (0 <= start_char AND start_char < end_char)
);

CREATE TABLE sentence (
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    idx         integer NOT NULL,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    PRIMARY KEY (document_id, idx),
    CONSTRAINT sentence_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE INDEX sentence_document_first_token_idx ON sentence (document_id, first_token);

CREATE TABLE named_entity (
    id          bigserial PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    type        text NOT NULL,
    category    text NOT NULL,
    source      text NOT NULL DEFAULT '',
    score       real NOT NULL DEFAULT 1,
    CONSTRAINT named_entity_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE INDEX named_entity_document_idx ON named_entity (document_id, first_token);
CREATE INDEX named_entity_type_idx ON named_entity (document_id, type);

CREATE TABLE label (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    name        text NOT NULL,
    category    text,
    replacement text,
    created_by  bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT label_name_length CHECK (length(name) BETWEEN 1 AND 100)
);
CREATE UNIQUE INDEX label_project_name_key ON label (project_id, name);

CREATE TABLE annotation (
    id             bigserial PRIMARY KEY,
    document_id    bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token    integer NOT NULL,
    end_token      integer NOT NULL,
    token_decision decision,
    token_label_id bigint REFERENCES label (id) ON DELETE SET NULL,
    decided_by     bigint REFERENCES account (id) ON DELETE SET NULL,
    decided_at     timestamptz,
    rule_level     double precision NOT NULL DEFAULT 0,
    CONSTRAINT annotation_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE UNIQUE INDEX annotation_span_key ON annotation (document_id, first_token, end_token);

CREATE TABLE rule (
    id             bigserial PRIMARY KEY,
    project_id     bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    type           rule_type NOT NULL,
    condition      text NOT NULL,
    case_sensitive boolean NOT NULL DEFAULT true,
    confidence     double precision NOT NULL DEFAULT 0,
    label_id       bigint REFERENCES label (id) ON DELETE SET NULL,
    -- lookup rules ("find the same words elsewhere") belong to the annotation that created them
    annotation_id  bigint REFERENCES annotation (id) ON DELETE CASCADE,
    author_id      bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT rule_condition_length CHECK (length(condition) BETWEEN 1 AND 1000),
    CONSTRAINT rule_confidence_finite CHECK (confidence BETWEEN -1000 AND 1000)
);
CREATE UNIQUE INDEX rule_project_condition_key ON rule (project_id, type, condition, case_sensitive)
    WHERE annotation_id IS NULL;
CREATE INDEX rule_annotation_idx ON rule (annotation_id) WHERE annotation_id IS NOT NULL;
CREATE INDEX rule_project_type_idx ON rule (project_id, type);

CREATE TABLE annotation_rule (
    annotation_id bigint NOT NULL REFERENCES annotation (id) ON DELETE CASCADE,
    rule_id       bigint NOT NULL REFERENCES rule (id) ON DELETE CASCADE,
    PRIMARY KEY (annotation_id, rule_id)
);
CREATE INDEX annotation_rule_rule_idx ON annotation_rule (rule_id);

-- audit trail of every decision; removed with its document
CREATE TABLE decision_log (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id bigint REFERENCES document (id) ON DELETE CASCADE,
    account_id  bigint REFERENCES account (id) ON DELETE SET NULL,
    first_token integer,
    end_token   integer,
    action      text NOT NULL,
    decision    decision,
    label_name  text,
    rule_id     bigint,
    detail      jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX decision_log_document_idx ON decision_log (document_id, created_at);
CREATE INDEX decision_log_project_idx ON decision_log (project_id, created_at);

-- the slice of a document a user may currently see; leases expire so windows are not handed out twice
CREATE TABLE annotation_window (
    account_id  bigint PRIMARY KEY REFERENCES account (id) ON DELETE CASCADE,
    document_id bigint NOT NULL REFERENCES document (id) ON DELETE CASCADE,
    first_token integer NOT NULL,
    end_token   integer NOT NULL,
    expires_at  timestamptz NOT NULL,
    CONSTRAINT annotation_window_range CHECK (0 <= first_token AND first_token < end_token)
);
CREATE INDEX annotation_window_document_idx ON annotation_window (document_id, expires_at);
