DROP TABLE IF EXISTS annotation_window, decision_log, annotation_rule, rule, annotation, label, named_entity,
    sentence, token, document, project_member, project, instance_setting, account CASCADE;
DROP TYPE IF EXISTS decision, rule_type, document_status, account_role;
