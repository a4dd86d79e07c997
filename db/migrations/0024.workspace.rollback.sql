ALTER TABLE project DROP COLUMN IF EXISTS annotators_choose_document;
DROP TABLE IF EXISTS annotator_choice;
DROP TRIGGER IF EXISTS annotation_window_left ON annotation_window;
DROP TRIGGER IF EXISTS annotation_window_released ON annotation_window;
DROP FUNCTION IF EXISTS psan_log_window();
DROP TABLE IF EXISTS window_log;
