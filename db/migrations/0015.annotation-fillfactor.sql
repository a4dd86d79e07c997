-- Room on every annotation page for the new versions of its rows: a decision re-levels every
-- occurrence of its words (rule_level, which no index holds), and with free space on the page the
-- update is HOT (no new index entries in the four annotation indexes).  Pages written from now on.
ALTER TABLE annotation SET (fillfactor = 85);
