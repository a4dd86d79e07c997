"""Review and progress over many documents: concordance, bulk decisions, double annotation and
adjudication, the admin dashboard, the annotator's home, the public rules offered from many documents' decisions
and the webhook that tells other systems about progress.

May import: :mod:`psan.store.annotation` and everything it may import.
"""
