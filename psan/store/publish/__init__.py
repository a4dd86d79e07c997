"""The release: private regions of stored documents, every output mode, the stored pseudonym key,
single-document output, corrections, QA sampling, the release report, the project ZIP and the read-only
release audit (what settled each masked span, for the end-to-end measurement).

May import: :mod:`psan.store.review` and everything it may import.  Inside, lowest first:
``corrections``/``pseudonym_key``/``release_entities``/``release_audit`` → ``regions`` → ``output_single``/``qa`` →
``output``/``release`` → ``archive``.
"""
