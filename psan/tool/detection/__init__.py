"""Detection: the recognition pipeline (tokens → recognizers → NER → merge → document-level clean-up),
its components by name, the NER adapters (:mod:`.ner`), the rule-based recognizers (:mod:`.recognizers`)
and the learned classifier (:mod:`.classifier`)."""
