DROP INDEX IF EXISTS named_entity_model_idx;
DROP TABLE IF EXISTS project_model;
