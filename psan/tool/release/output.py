"""Output modes: remove, tag, pseudonymize — plus standoff and exact restore.

Every mode takes the original text and the :class:`~psan.tool.decisions.voting.PrivateRegion`
list (sorted, non-overlapping) and returns an :class:`Output`: the output
text and a *standoff* list kept apart from it.  The standoff holds the
personal data (original text of each region) and is what makes
:func:`restore` (de-pseudonymization) exact; store it separately and with
the access rights of the original.

Guarantees (tested with hypothesis in ``tests/tool/test_output.py``):

* text outside private regions is copied byte for byte (``tag``,
  ``pseudonymize``); ``remove`` additionally drops only whitespace adjacent
  to a removed region, so the result has no doubled space, no space before
  closing punctuation and no leading space where the region was;
* ``restore(output.text, output.standoff) == original`` for every mode.

Standoff entry keys (all JSON-serializable): ``original_start``,
``original_end``, ``output_start``, ``output_end``, ``original_text``,
``category``, ``label``, ``type``, ``replacement`` (the text written in the
output), ``removed_before``/``removed_after`` (whitespace dropped by
``remove``, or the preposition a surrogate re-vocalized, which the entry's
replacement then begins with; empty otherwise) and, for a surrogate rendered in
a grammatical case, ``features`` (UD ``Case``/``Gender``/``Number``/``Animacy``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from psan.tool.decisions.voting import PrivateRegion
from psan.tool.text.shared_words import shares_word

__all__ = [
    "Output",
    "Replacer",
    "LabelReplacer",
    "TagScheme",
    "TAG_NAMES",
    "tag_for",
    "remove",
    "tag",
    "pseudonymize",
    "render",
    "restore",
]

#: localized tag names per language; keys are entity types (checked first) or Category values
TAG_NAMES: dict[str, dict[str, str]] = {
    "en": {},
    # Polish anonymized corpus (Inforex): MAIL, MIEJSCE, OSOBA, USER, WWW, INNE
    "pl": {
        "PERSON": "OSOBA", "LOCATION": "MIEJSCE", "ORGANIZATION": "INNE", "DATE": "INNE",
        "ID": "INNE", "CONTACT": "INNE", "OTHER": "INNE", "SENSITIVE": "INNE", "DEMOGRAPHIC": "INNE",
        "EMAIL": "MAIL", "URL": "WWW", "USER": "USER", "USERNAME": "USER",
    },
    "cs": {
        "PERSON": "OSOBA", "LOCATION": "MÍSTO", "ORGANIZATION": "ORGANIZACE", "DATE": "DATUM",
        "ID": "ID", "CONTACT": "KONTAKT", "OTHER": "JINÉ", "SENSITIVE": "CITLIVÉ", "DEMOGRAPHIC": "DEMOGRAFICKÉ",
        "EMAIL": "EMAIL", "URL": "URL",
    },
    "sk": {
        "PERSON": "OSOBA", "LOCATION": "MIESTO", "ORGANIZATION": "ORGANIZÁCIA", "DATE": "DÁTUM",
        "ID": "ID", "CONTACT": "KONTAKT", "OTHER": "INÉ", "SENSITIVE": "CITLIVÉ", "DEMOGRAPHIC": "DEMOGRAFICKÉ",
        "EMAIL": "EMAIL", "URL": "URL",
    },
    "sl": {
        "PERSON": "OSEBA", "LOCATION": "KRAJ", "ORGANIZATION": "ORGANIZACIJA", "DATE": "DATUM",
        "ID": "ID", "CONTACT": "KONTAKT", "OTHER": "DRUGO", "SENSITIVE": "OBČUTLJIVO", "DEMOGRAPHIC": "DEMOGRAFSKO",
        "EMAIL": "EMAIL", "URL": "URL",
    },
}

_CLOSING = frozenset(".,;:!?)]}…»")
_OPENING = frozenset("([{«„¿¡")


@dataclass(slots=True)
class Output:
    """Output text plus its standoff (personal data: keep it separate)."""

    text: str
    standoff: list[dict[str, Any]] = field(default_factory=list)


class Replacer(Protocol):
    """Surrogate provider for ``pseudonymize``.

    Gets the region and its original text (surrogates keep case, digit count,
    inflection …); returns the replacement or ``None`` to fall back to a tag.
    """

    def replacement(self, region: PrivateRegion, original: str) -> str | None: ...  # pragma: no cover


class LabelReplacer:
    """Replacement strings chosen per label id (the annotator's pseudonymization label)."""

    def __init__(self, replacements: Mapping[int, str]) -> None:
        self.replacements = dict(replacements)

    def replacement(self, region: PrivateRegion, original: str) -> str | None:
        if region.label is None:
            return None
        return self.replacements.get(region.label)


@dataclass(frozen=True, slots=True)
class TagScheme:
    """How a region becomes a tag: ``[PERSON]``, ``[PERSON-3]`` or ``[OSOBA] [OSOBA]``.

    ``names`` maps an entity type or a category value to the tag name
    (type wins, so CONTACT can be split into MAIL/WWW); unknown → category value.
    """

    names: Mapping[str, str] = field(default_factory=dict)
    with_label: bool = True
    per_token: bool = False
    fmt: str = "[{name}]"
    label_fmt: str = "[{name}-{label}]"

    @classmethod
    def for_language(cls, language: str, **kwargs: Any) -> TagScheme:
        return cls(names=TAG_NAMES.get(language, {}), **kwargs)


def _category_value(category: Any) -> str:
    return category.value if hasattr(category, "value") else str(category)


def tag_for(region: PrivateRegion, scheme: TagScheme) -> str:
    """One tag for the region according to ``scheme`` (ignores ``per_token``)."""
    category = _category_value(region.category)
    name = scheme.names.get(region.type) if region.type else None
    name = name or scheme.names.get(category) or category
    if scheme.with_label and region.label is not None:
        return scheme.label_fmt.format(name=name, label=region.label, category=category)
    return scheme.fmt.format(name=name, category=category)


#: tag names a region falls back to when its own tag would print a word of its original ("seven other persons"
#: is no "[OTHER-3]"): a replacement never holds the original's words
NEUTRAL_TAG_NAMES = ("PRIVATE", "X")


def tag_without_original(region: PrivateRegion, scheme: TagScheme, original: str) -> str:
    """The region's tag, or a neutral one where the tag would print a word of the original."""
    one = tag_for(region, scheme)
    if not shares_word(one, original):
        return one
    category = _category_value(region.category)
    for name in NEUTRAL_TAG_NAMES:
        names = {**scheme.names, category: name, **({region.type: name} if region.type else {})}
        candidate = tag_for(region, replace(scheme, names=names))
        if not shares_word(candidate, original):
            return candidate
    return "[X]"


def _tag_text(text: str, region: PrivateRegion, scheme: TagScheme) -> str:
    one = tag_without_original(region, scheme, text[region.start:region.end])
    if not scheme.per_token or len(region.token_spans) < 2:
        return one
    parts: list[str] = []
    prev_end: int | None = None
    for start, end in region.token_spans:
        if prev_end is not None:
            gap = text[prev_end:start]
            # keep the layout between tokens, but never private non-space characters
            parts.append(gap if gap == "" or gap.isspace() else " ")
        parts.append(one)
        prev_end = end
    return "".join(parts)


def _check(text: str, regions: Sequence[PrivateRegion]) -> None:
    prev = 0
    for r in regions:
        if not (prev <= r.start < r.end <= len(text)):
            raise ValueError(f"regions must be sorted, non-overlapping, non-empty and inside the text: {r}")
        prev = r.end


def _entry(text: str, r: PrivateRegion, out_start: int, replacement: str,
           before: str = "", after: str = "") -> dict[str, Any]:
    return {
        "original_start": r.start,
        "original_end": r.end,
        "output_start": out_start,
        "output_end": out_start + len(replacement),
        "original_text": text[r.start:r.end],
        "category": _category_value(r.category),
        "label": r.label,
        "type": r.type,
        "replacement": replacement,
        "removed_before": before,
        "removed_after": after,
    }


def _substitute(text: str, regions: Sequence[PrivateRegion], make: Callable[[PrivateRegion], str],
                lead: Callable[[PrivateRegion, str], tuple[int, str]] | None = None) -> Output:
    """``lead(region, replacement)`` may rewrite the end of the text before a region (a preposition
    vocalized for the surrogate): (characters replaced, new text); they join the entry's replacement
    and its ``removed_before``, so :func:`restore` stays exact."""
    _check(text, regions)
    parts: list[str] = []
    standoff: list[dict[str, Any]] = []
    pos = 0
    out_len = 0
    for r in regions:
        gap = text[pos:r.start]
        repl = make(r)
        cut, new = lead(r, repl) if lead is not None else (0, "")
        if not 0 < cut <= len(gap):
            cut, new = 0, ""
        kept = gap[:len(gap) - cut]
        parts.append(kept)
        out_len += len(kept)
        standoff.append(_entry(text, r, out_len, new + repl, gap[len(gap) - cut:]))
        parts.append(new + repl)
        out_len += len(new) + len(repl)
        pos = r.end
    parts.append(text[pos:])
    return Output("".join(parts), standoff)


def tag(text: str, regions: Sequence[PrivateRegion], scheme: TagScheme | None = None, *,
        language: str | None = None) -> Output:
    """Replace each region by its tag (``scheme`` or the language's default names)."""
    if scheme is None:
        scheme = TagScheme.for_language(language or "en")
    return _substitute(text, regions, lambda r: _tag_text(text, r, scheme))


def pseudonymize(text: str, regions: Sequence[PrivateRegion], replacer: Replacer | None = None,
                 scheme: TagScheme | None = None, *, language: str | None = None) -> Output:
    """Replace each region by its surrogate; without one, by its tag."""
    if scheme is None:
        scheme = TagScheme.for_language(language or "en")

    def make(r: PrivateRegion) -> str:
        repl = replacer.replacement(r, text[r.start:r.end]) if replacer is not None else None
        return repl if repl is not None else _tag_text(text, r, scheme)

    vocalize = getattr(replacer, "preposition", None)  # optional: re-vocalize "s Samuelem" → "se Samuelem"
    lead = None if vocalize is None else (lambda r, repl: vocalize(text, r, repl))
    out = _substitute(text, regions, make, lead)
    features = getattr(replacer, "features", None)  # optional: what each surrogate was rendered with
    if features:
        for e in out.standoff:
            got = features.get((e["original_start"], e["original_end"]))
            if got is not None:
                e["features"] = dict(got)
    return out


def remove(text: str, regions: Sequence[PrivateRegion]) -> Output:
    """Delete each region and tidy the whitespace around it.

    Regions separated only by whitespace are removed together.  Around such a
    cluster (``L`` = whitespace before it, ``R`` = after it):

    * followed by closing punctuation or the end of text → drop ``L`` (only
      its part after the last newline, so lines are not joined): "Ahoj Jan." → "Ahoj.";
      and ``R`` too when nothing but a line start/opening bracket precedes: "Jan ." → ".";
    * both ``L`` and ``R`` present → keep one: drop ``R``, unless only ``R``
      holds a newline: "a Jan b" → "a b";
    * only ``R``, at the start of output/line or after an opening bracket →
      drop ``R``: "Jan přišel" → "přišel".
    """
    _check(text, regions)
    clusters: list[list[PrivateRegion]] = []
    for r in regions:
        between = text[clusters[-1][-1].end:r.start] if clusters else "x"
        if between == "" or between.isspace():
            clusters[-1].append(r)
        else:
            clusters.append([r])
    parts: list[str] = []
    standoff: list[dict[str, Any]] = []
    pos = 0
    out_len = 0
    last_char: str | None = None  # last character already written
    for ci, cluster in enumerate(clusters):
        start, end = cluster[0].start, cluster[-1].end
        gap = text[pos:start]
        kept = gap.rstrip()
        left = gap[len(kept):]
        limit = clusters[ci + 1][0].start if ci + 1 < len(clusters) else len(text)
        after = text[end:limit]
        right = after[:len(after) - len(after.lstrip())]
        nxt = end + len(right)
        next_char = text[nxt] if nxt < len(text) else None
        prev_char = kept[-1] if kept else last_char
        drop_left = drop_right = ""
        if next_char is None or next_char in _CLOSING:
            nl = left.rfind("\n")
            drop_left = left[nl + 1:]
            kept_gap = gap[:len(gap) - len(drop_left)]
            before = kept_gap[-1] if kept_gap else last_char
            if right and (before is None or before.isspace() or before in _OPENING):
                drop_right = right
        elif left and right:
            if "\n" in right and "\n" not in left:
                drop_left = left
            else:
                drop_right = right
        elif right and (prev_char is None or prev_char.isspace() or prev_char in _OPENING):
            drop_right = right
        written = gap[:len(gap) - len(drop_left)]
        parts.append(written)
        out_len += len(written)
        if written:
            last_char = written[-1]
        for i, r in enumerate(cluster):
            before = drop_left if i == 0 else ""
            after_r = text[r.end:cluster[i + 1].start] if i + 1 < len(cluster) else drop_right
            standoff.append(_entry(text, r, out_len, "", before, after_r))
        pos = end + len(drop_right)
    parts.append(text[pos:])
    return Output("".join(parts), standoff)


def render(mode: str, text: str, regions: Sequence[PrivateRegion], **kwargs: Any) -> Output:
    """Dispatch by mode name: ``remove``, ``tag`` or ``pseudonymize``."""
    modes: dict[str, Callable[..., Output]] = {"remove": remove, "tag": tag, "pseudonymize": pseudonymize}
    try:
        fn = modes[mode]
    except KeyError:
        raise ValueError(f"unknown output mode {mode!r}; use one of {sorted(modes)}") from None
    return fn(text, regions, **kwargs)


def restore(output_text: str, standoff: Sequence[Mapping[str, Any]]) -> str:
    """Rebuild the original text from any mode's output and standoff, byte for byte.

    Raises ``ValueError`` when the output does not carry the replacement the
    standoff expects (edited output or a standoff of another document).
    """
    entries = sorted(standoff, key=lambda e: (e["output_start"], e["original_start"]))
    parts: list[str] = []
    pos = 0
    for e in entries:
        o_start, o_end = e["output_start"], e["output_end"]
        if o_start < pos or output_text[o_start:o_end] != e["replacement"]:
            raise ValueError(f"output does not match standoff at {o_start}:{o_end}")
        parts.append(output_text[pos:o_start])
        parts.append(e.get("removed_before", "") + e["original_text"] + e.get("removed_after", ""))
        pos = o_end
    parts.append(output_text[pos:])
    return "".join(parts)
