-- The code before 0044 knows one classifier source, 'model'.
UPDATE named_entity SET source = 'model' WHERE source = 'classifier';
