DROP INDEX IF EXISTS token_document_start_char_idx;
