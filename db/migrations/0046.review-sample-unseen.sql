-- The stretches of a sampled sentence no window had shown when the sample was drawn, as token ranges
-- [first, end) flattened (first1, end1, first2, end2, ...): the QA reviewer reads those, not again the words a
-- person already saw in a span review.  NULL (samples drawn before): the whole sentence.
ALTER TABLE risk_sample_sentence ADD COLUMN IF NOT EXISTS unseen integer[];
