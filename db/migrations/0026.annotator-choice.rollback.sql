ALTER TABLE account ADD COLUMN IF NOT EXISTS chosen_project_id bigint REFERENCES project (id) ON DELETE SET NULL;
ALTER TABLE account ADD COLUMN IF NOT EXISTS chosen_document_id bigint REFERENCES document (id) ON DELETE SET NULL;
UPDATE account a SET chosen_project_id = c.project_id, chosen_document_id = c.document_id
FROM annotator_choice c WHERE c.account_id = a.id;
DROP TABLE IF EXISTS annotator_choice;
