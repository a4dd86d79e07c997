-- A person's answer to an offered project-wide "public" rule (psan.store.annotation.public_offers): the offers
-- themselves are computed from the project's decisions; only what a person did with one is stored.  CONFIRMED
-- names the WORD_TYPE rule the confirmation made (deleting that rule, on the rules page or by undo, deletes the
-- row, so the offer may come back while the decisions still support it); DISMISSED keeps the form from being
-- offered again.
CREATE TABLE IF NOT EXISTS public_offer (
    id          bigserial PRIMARY KEY,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    form        text NOT NULL,
    state       text NOT NULL CHECK (state IN ('CONFIRMED', 'DISMISSED')),
    rule_id     bigint REFERENCES rule (id) ON DELETE CASCADE,
    account_id  bigint REFERENCES account (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT public_offer_rule CHECK ((state = 'CONFIRMED') = (rule_id IS NOT NULL)),
    CONSTRAINT public_offer_form UNIQUE (project_id, form)
);
CREATE INDEX IF NOT EXISTS public_offer_rule_idx ON public_offer (rule_id) WHERE rule_id IS NOT NULL;
