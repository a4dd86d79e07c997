"""Why a stretch of text is shown to be read in full, in words an annotator understands.

The risk model names its features (:func:`psan.tool.risk.sentence_features`); a person reads "the word
“Novak12”, which no span covers" instead.  Only the window's own words are named: nothing of other text.
"""
from __future__ import annotations

from typing import Any

from flask_babel import gettext

from psan.store.review.risk_review import Reading


def _feature(name: str) -> str | None:
    if name.startswith("rule="):
        return gettext("“%(words)s”, public by a rule that may be wrong here", words=name[5:])
    if name.startswith("w="):
        return gettext("the word “%(word)s”, which no span covers", word=name[2:])
    if name.startswith("pub="):
        return gettext("the word “%(word)s”, released by a rule where nobody checked it", word=name[4:])
    if name.startswith("prev="):
        before, _, shape = name[5:].rpartition("|")
        what = {"Xx": gettext("a capitalised word"), "X": gettext("a word in capitals"),
                "d": gettext("a number")}.get(shape)
        if what is None:
            return None
        if before == "<s>":
            return gettext("%(what)s at the start of a sentence", what=what)
        return gettext("%(what)s after “%(word)s”", what=what, word=before)
    return {"uncovered_Xx": gettext("capitalised words no span covers"),
            "uncovered_X": gettext("words in capitals no span covers"),
            "uncovered_d": gettext("numbers no span covers"),
            "private_spans": gettext("private or highlighted spans in the same sentence"),
            "public_words": gettext("words released by rules where nobody checked them"),
            "len": gettext("a long sentence")}.get(name)


def routing_json(reading: Reading) -> dict[str, Any]:
    """The ``routing`` member of a reading window's answer: why it is shown."""
    if reading.reason == "full":
        why = [gettext("This project reads every sentence.")]
    elif reading.reason == "untrained":
        why = [gettext("The project has not marked enough missed names by hand for its risk model to learn from: "
                       "everything is read until it has.")]
    else:
        why = [text for text in map(_feature, reading.features) if text] or [
            gettext("Names missed by every recognizer have been rare in this project: this text is read so that "
                    "the text left unread stays within the release target.")]
    return {"kind": "reading", "reason": reading.reason, "risk": round(reading.risk, 3), "why": why}
