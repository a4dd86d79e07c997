DROP TABLE IF EXISTS api_token_use;
DROP TABLE IF EXISTS api_token_project;
DROP TABLE IF EXISTS api_token;
