DROP TRIGGER IF EXISTS document_webhook_status ON document;
DROP FUNCTION IF EXISTS psan_webhook_document_status();
DROP TABLE IF EXISTS webhook_attempt;
DROP TABLE IF EXISTS webhook_delivery;
ALTER TABLE project DROP CONSTRAINT IF EXISTS project_webhook_url;
ALTER TABLE project DROP COLUMN IF EXISTS webhook_secret;
ALTER TABLE project DROP COLUMN IF EXISTS webhook_url;
DROP TABLE IF EXISTS account_identity;
