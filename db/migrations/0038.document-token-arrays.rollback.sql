DROP TABLE IF EXISTS document_arrays;
