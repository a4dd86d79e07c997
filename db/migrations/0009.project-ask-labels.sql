-- Project setting "ask for labels" (issue 14.10): when set, the annotation window opens the label
-- dialog right after a span is marked private (s, S); otherwise the annotator labels with e when
-- they choose to.  Off by default: most projects pseudonymize by category and need no labels.
ALTER TABLE project ADD COLUMN IF NOT EXISTS ask_labels boolean NOT NULL DEFAULT false;
