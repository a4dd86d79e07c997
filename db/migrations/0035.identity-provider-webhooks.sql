-- Sign-in through an OpenID Connect identity provider, and per-project webhooks.
--
-- account_identity: an account signed in through an identity provider is found by (issuer, subject) — the
-- provider's stable id of the person — never by its e-mail alone (an e-mail can be re-assigned or typed
-- into a provider's profile by anyone).  claim_role is the role the configured claim gave at the last
-- sign-in (NULL: the claim gave none, so the role is the admin's to set).
CREATE TABLE IF NOT EXISTS account_identity (
    issuer        text NOT NULL,
    subject       text NOT NULL,
    account_id    bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    claim_role    account_role,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_login_at timestamptz,
    PRIMARY KEY (issuer, subject),
    CONSTRAINT account_identity_issuer_length CHECK (length(issuer) BETWEEN 1 AND 1000),
    CONSTRAINT account_identity_subject_length CHECK (length(subject) BETWEEN 1 AND 255)
);
CREATE INDEX IF NOT EXISTS account_identity_account_idx ON account_identity (account_id);

-- A project's webhook: psan POSTs signed JSON events (ids and counts, never text) to webhook_url.
ALTER TABLE project ADD COLUMN IF NOT EXISTS webhook_url text;
ALTER TABLE project ADD COLUMN IF NOT EXISTS webhook_secret text;
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_webhook_url;
ALTER TABLE project ADD CONSTRAINT project_webhook_url
    CHECK (webhook_url IS NULL OR (webhook_url ~ '^https?://' AND length(webhook_url) <= 2000));

-- The outbox: an event is recorded in the transaction that made it happen, then delivered by a Celery task
-- (psan.celery.webhooks); status pending → delivered, or failed after the last retry.  queued_at: when a task
-- was queued (or the next retry is due); claimed_at: a task is posting it (no second task posts it meanwhile).
CREATE TABLE IF NOT EXISTS webhook_delivery (
    id            bigserial PRIMARY KEY,
    project_id    bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    event         text NOT NULL,
    payload       jsonb NOT NULL,
    status        text NOT NULL DEFAULT 'pending',
    attempts      integer NOT NULL DEFAULT 0,
    queued_at     timestamptz,
    claimed_at    timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    CONSTRAINT webhook_delivery_status CHECK (status IN ('pending', 'delivered', 'failed'))
);
CREATE INDEX IF NOT EXISTS webhook_delivery_project_idx ON webhook_delivery (project_id, id DESC);
CREATE INDEX IF NOT EXISTS webhook_delivery_unqueued_idx ON webhook_delivery (id)
    WHERE status = 'pending' AND queued_at IS NULL;

-- every attempt: when, the HTTP status (NULL: no answer) and a short error
CREATE TABLE IF NOT EXISTS webhook_attempt (
    id           bigserial PRIMARY KEY,
    delivery_id  bigint NOT NULL REFERENCES webhook_delivery (id) ON DELETE CASCADE,
    attempt      integer NOT NULL,
    url          text NOT NULL,
    status_code  integer,
    error        text,
    seconds      double precision NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhook_attempt_delivery_idx ON webhook_attempt (delivery_id, id);

-- document.ready and project.decided are recorded by a trigger on the document's status, so that every path
-- that changes it (pre-processing, a decision, undo, bulk decisions, re-annotation, thresholds) records the
-- event in its own transaction; only projects with a webhook pay for the check.  Two transactions that decide
-- a project's last two documents at the same moment each see the other's document undecided: then neither
-- records project.decided (rare; taking a lock here instead could deadlock decisions).
CREATE OR REPLACE FUNCTION psan_webhook_document_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    hooked boolean;
BEGIN
    SELECT p.webhook_url IS NOT NULL INTO hooked FROM project p WHERE p.id = NEW.project_id;
    IF NOT coalesce(hooked, false) THEN
        RETURN NULL;
    END IF;
    IF OLD.status IN ('NEW', 'PROCESSING', 'RECOGNIZED', 'FAILED') AND NEW.status IN ('PRE_ANNOTATED', 'DONE') THEN
        INSERT INTO webhook_delivery (project_id, event, payload)
        SELECT NEW.project_id, 'document.ready',
               jsonb_build_object('event', 'document.ready', 'project_id', NEW.project_id, 'document_id', NEW.id,
                                  'status', NEW.status::text,
                                  'undecided_spans', (SELECT count(*) FROM annotation a JOIN project p
                                                      ON p.id = NEW.project_id WHERE a.document_id = NEW.id
                                                      AND a.token_decision IS NULL
                                                      AND a.rule_level > p.private_threshold
                                                      AND a.rule_level < p.public_threshold));
    END IF;
    -- created_at = now(): an event of this transaction (one statement deciding many documents fires once)
    IF NEW.status = 'DONE' AND OLD.status IS DISTINCT FROM 'DONE'
            AND NOT EXISTS (SELECT 1 FROM document d WHERE d.project_id = NEW.project_id AND d.status <> 'DONE')
            AND NOT EXISTS (SELECT 1 FROM webhook_delivery w WHERE w.project_id = NEW.project_id
                            AND w.event = 'project.decided' AND w.created_at = now()) THEN
        INSERT INTO webhook_delivery (project_id, event, payload)
        SELECT NEW.project_id, 'project.decided',
               jsonb_build_object('event', 'project.decided', 'project_id', NEW.project_id,
                                  'documents', (SELECT count(*) FROM document d WHERE d.project_id = NEW.project_id));
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS document_webhook_status ON document;
CREATE TRIGGER document_webhook_status AFTER UPDATE OF status ON document
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION psan_webhook_document_status();
