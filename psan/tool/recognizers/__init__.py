"""Rule-based recognizers: validated patterns (:mod:`.patterns`) and name/place lists (:mod:`.gazetteer`).

Every recognizer is a :class:`psan.tool.model.Recognizer` that returns
character-offset :class:`~psan.tool.model.CharSpan` candidates; overlaps are
resolved later by :func:`psan.tool.merge.resolve`.
"""
