-- The annotator's choice (issue 24) moves from account columns (0024) into a table of its own: a
-- reference from account to project or document made a TRUNCATE of documents or projects (a restore,
-- a clean-up) cascade into the accounts.  Choices already made are kept.
CREATE TABLE IF NOT EXISTS annotator_choice (
    account_id  bigint PRIMARY KEY REFERENCES account (id) ON DELETE CASCADE,
    project_id  bigint NOT NULL REFERENCES project (id) ON DELETE CASCADE,
    document_id bigint REFERENCES document (id) ON DELETE SET NULL
);
INSERT INTO annotator_choice (account_id, project_id, document_id)
SELECT id, chosen_project_id, chosen_document_id FROM account WHERE chosen_project_id IS NOT NULL
ON CONFLICT (account_id) DO NOTHING;
ALTER TABLE account DROP COLUMN IF EXISTS chosen_document_id;
ALTER TABLE account DROP COLUMN IF EXISTS chosen_project_id;
