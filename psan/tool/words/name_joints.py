"""The small words that join or close the parts of a name: articles, function words and legal forms.

Why a module of their own: entity linking, acronym definitions, consolidation and the surrogates of name
variants all read them, and none of those should import another to get three constants.
"""
from __future__ import annotations

import re

#: a legal form closing an organisation's name (English, Czech/Slovak, Polish, German, Nordic, Romance)
LEGAL_FORM_RE = re.compile(
    r"(?:,?\s+(?:limited|ltd\.?|plc|llc|l\.l\.c\.|inc\.?|incorporated|corp\.?|corporation|co\.|gmbh|ag|kg|se|"
    r"a\.\s?s\.|s\.\s?r\.\s?o\.|spol\.\s?s\s?r\.\s?o\.|k\.\s?s\.|v\.\s?o\.\s?s\.|z\.\s?s\.|o\.\s?p\.\s?s\.|"
    r"sp\.\s?z\s?o\.\s?o\.|s\.\s?a\.|s\.\s?p\.\s?a\.|b\.\s?v\.|n\.\s?v\.|ab|asa|oy|d\.\s?o\.\s?o\.|d\.\s?d\.))+\s*$",
    re.IGNORECASE)
#: articles that may lead a name ("the BNP")
ARTICLES = frozenset(("the", "a", "an", "der", "die", "das", "le", "la", "les", "l", "el"))
#: words skipped when building an acronym ("Court of Justice of the European Union" → CJEU)
FUNCTION_WORDS = frozenset(("of", "the", "and", "for", "on", "in", "at", "to", "a", "an", "de", "du", "des", "la",
                             "le", "et", "für", "und", "der", "die", "das", "a", "i", "w", "z", "na", "pro", "ve",
                             "v", "och", "för", "av"))
