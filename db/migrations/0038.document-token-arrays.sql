-- A recognized document's token offsets and sentence bounds as packed little-endian int32 arrays, written
-- with its token and sentence rows and deleted with them.  Why: a process that has not cached a large
-- document read 10^6 token rows (seconds) before answering its first annotation window; one row of four
-- arrays reads in milliseconds.  The token and sentence tables stay the source for range queries.
-- STORAGE EXTERNAL: the arrays are read whole and barely compress; no decompression on every load.
CREATE TABLE IF NOT EXISTS document_arrays (
    document_id      bigint PRIMARY KEY REFERENCES document (id) ON DELETE CASCADE,
    token_starts     bytea NOT NULL,
    token_ends       bytea NOT NULL,
    sentence_firsts  bytea NOT NULL,
    sentence_ends    bytea NOT NULL
);
ALTER TABLE document_arrays ALTER COLUMN token_starts SET STORAGE EXTERNAL;
ALTER TABLE document_arrays ALTER COLUMN token_ends SET STORAGE EXTERNAL;
ALTER TABLE document_arrays ALTER COLUMN sentence_firsts SET STORAGE EXTERNAL;
ALTER TABLE document_arrays ALTER COLUMN sentence_ends SET STORAGE EXTERNAL;
