"""Review and progress over many documents: concordance, bulk decisions, double annotation and
adjudication, the admin dashboard, the annotator's home and the webhook that tells other systems about progress.

May import: :mod:`psan.store.annotation` and everything it may import.
"""
