ALTER TABLE annotation RESET (fillfactor);
