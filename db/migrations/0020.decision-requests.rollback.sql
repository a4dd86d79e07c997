DROP TABLE IF EXISTS decision_request;
