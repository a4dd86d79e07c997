"""Titles of published works after "entitled": an article, a book, a programme (English text).

Why: a press or broadcasting case turns on what a person wrote or said, and the title of the article or
programme ("an article entitled “…”", "a show entitled “…”") finds the text, its author and the case in
any search engine; the Text Anonymization Benchmark masks such titles.  NER reads a title as the names
inside it ("Kurdish") or not at all.  The evidence is the frame, not the words: a quoted title right after
"entitled", "titled" or "headlined", on one line, up to 120 characters; the span holds the quotes.
"""
from __future__ import annotations

import re

from psan.tool.detection.recognizers.base import PatternRecognizer
from psan.tool.detection.recognizers.prescan import literal_starts
from psan.tool.text.document import Category

PRIORITY_TITLE = 5
TITLE_RE = re.compile(r"\b(?:entitled|titled|headlined)[ \t]+(?P<title>“[^”\n]{1,120}”|\"[^\"\n]{1,120}\")")

#: the shapes its matches start with: a frame word's first three letters after no word character
TITLE_STARTS = literal_starts(("entitled", "titled", "headlined"), 3, not_before=r"\w")


class TitleRecognizer(PatternRecognizer):
    """Quoted titles after "entitled"/"titled"/"headlined" (see module docstring)."""

    def __init__(self) -> None:
        super().__init__("title", "TITLE", Category.OTHER, TITLE_RE, score=0.6, priority=PRIORITY_TITLE,
                         group="title", starts=TITLE_STARTS)

    def prefilter(self, text: str) -> bool:
        # "titled" is in "entitled" too: most documents have neither, and ``in`` is far cheaper than the scan
        return "titled" in text or "headlined" in text
