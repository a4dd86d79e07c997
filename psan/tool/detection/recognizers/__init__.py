"""Rule-based recognizers: validated patterns (:mod:`.patterns`), name/place lists (:mod:`.gazetteer`) and
special categories of personal data (:mod:`.sensitive`, category SENSITIVE).

Every recognizer is a :class:`psan.tool.text.document.Recognizer` that returns
character-offset :class:`~psan.tool.text.document.CharSpan` candidates; overlaps are
resolved later by :func:`psan.tool.detection.merge.resolve`.
"""
