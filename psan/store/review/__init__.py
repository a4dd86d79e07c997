"""Review and progress over many documents: concordance, bulk decisions, double annotation and
adjudication, the admin dashboard and the annotator's home.

May import: :mod:`psan.store.annotation` and everything it may import.
"""
