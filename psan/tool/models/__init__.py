"""Fetching the NER models psan can use but may not ship (licences, size): NameTag 1 and spaCy Czech.

Why a package of its own: a newcomer's Czech project has no NER until the models are on disk, and the
models are licensed for non-commercial use only, so the download must state the licence, record its
acceptance and verify what it installs (:mod:`psan.tool.models.fetch`; CLI ``psan-tool models``).
"""
