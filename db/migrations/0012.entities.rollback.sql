DROP TABLE IF EXISTS pseudonym_key;
DROP TABLE IF EXISTS entity_mention;
DROP TABLE IF EXISTS entity;
