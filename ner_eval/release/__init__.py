"""``python -m ner_eval release``: the simulated annotator releases a corpus through the real app (run.py)."""
