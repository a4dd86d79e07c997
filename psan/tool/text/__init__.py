"""The document model and what splits text: documents, categories, tokens and sentences, sections, language.

The lowest layer of psan.tool after :mod:`psan.tool.base`: every other part reads a
:class:`~psan.tool.text.document.Document`; nothing here knows of recognition, rules or output.
"""
