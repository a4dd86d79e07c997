ALTER TABLE project DROP COLUMN IF EXISTS annotators_choose_document;
ALTER TABLE account DROP COLUMN IF EXISTS chosen_document_id;
ALTER TABLE account DROP COLUMN IF EXISTS chosen_project_id;
DROP TRIGGER IF EXISTS annotation_window_left ON annotation_window;
DROP TRIGGER IF EXISTS annotation_window_released ON annotation_window;
DROP FUNCTION IF EXISTS psan_log_window();
DROP TABLE IF EXISTS window_log;
