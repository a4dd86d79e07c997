-- A pre-trained classifier run as a pipeline recognizer (classifier-<lang>.bin) now writes its spans with the source
-- 'classifier'; before, it wrote 'model', the source of the project's own model's predictions, which the app
-- replaces whenever that model is retrained or switched off (psan.store.corpus.project_model), deleting the
-- pre-trained classifier's spans with them.  In a project that has never stored a model of its own, every 'model'
-- span can only be the pre-trained classifier's: it takes that source now, so the project's first model keeps it.
-- (Where a project model exists, the two cannot be told apart; those spans stay as they are.)
UPDATE named_entity n SET source = 'classifier'
WHERE n.source = 'model'
  AND NOT EXISTS (SELECT 1 FROM document d JOIN project_model m ON m.project_id = d.project_id
                  WHERE d.id = n.document_id);
