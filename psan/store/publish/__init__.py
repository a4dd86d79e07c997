"""The release: private regions of stored documents, every output mode, the stored pseudonym key,
single-document output, corrections, QA sampling, the release report and the project ZIP.

May import: :mod:`psan.store.review` and everything it may import.  Inside, lowest first:
``corrections``/``pseudonym_key``/``release_entities`` → ``regions`` → ``output_single``/``qa`` →
``output``/``release`` → ``archive``.
"""
