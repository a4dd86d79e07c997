"""How often is an inflected person-name surrogate in the original's grammatical form?

Run: ``python -m ner_eval.name_inflection [--shared DIR]``.  (The per-fold feature scores of the surrogates are
``python -m ner_eval inflection``; this older check scores the inflected person names of pl-dev and cnec-dtest.)

Data: person names of ``pl-dev.jsonl`` (PER) and ``cnec-dtest.jsonl``
(containers ``P`` with ``pf``/``ps`` inside), pseudonymized as one project
each; every name word of the original is paired with its surrogate word
(surrogates keep the word count).

Criteria ("correct"):

* **Polish** — Morfeusz2 gives the surrogate word a noun reading that shares a
  (number, case) pair with the original word's preferred reading(s).  Words
  Morfeusz cannot analyse (foreign names: ``ign``) have no reference form; they
  are reported apart and counted as not correct in the overall figure.
* **Czech** — no Czech analyser of isolated forms is available offline, so the
  check is contextual: the spaCy pipeline ``cs_core_news_sm`` (PyPI, UD
  morphology) tags the original sentence and the pseudonymized sentence; the
  surrogate is correct when its ``Case`` equals the ``Case`` of the original
  word (only words whose original has a ``Case`` count).  The tagger errs too
  (unknown surnames), so a *baseline* is reported with it: the surrogate
  lemmas left uninflected.  Without spaCy, a weaker check runs:
  whether the generated non-nominative form is attested among CNEC-train name
  words.  Set ``PSAN_CS_MORPH_PATH`` to a directory holding
  ``cs_core_news_sm`` if it is not importable (``pip install --target DIR
  cs-core-news-sm``).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ner_eval.corpus import shared_dir
from psan.tool.decisions.voting import PrivateRegion
from psan.tool.morph.declension import inflect_pl
from psan.tool.surrogates import names
from psan.tool.surrogates.leakcheck import gold_regions, read_jsonl
from psan.tool.surrogates.replacer import SurrogateReplacer

_WORD = re.compile(r"[^\W\d_]+")


def default_shared() -> Path:
    return shared_dir()


def _pairs(replacer: SurrogateReplacer, text: str, region: PrivateRegion) -> list[tuple[str, str, int]]:
    """(original word, surrogate word, offset of the word in the text) for a person region."""
    return [(o, s, at) for o, s, at, _role in _pairs_roles(replacer, text, region)]


def _pairs_roles(replacer: SurrogateReplacer, text: str, region: PrivateRegion) -> list[tuple[str, str, int, str]]:
    """Like :func:`_pairs` plus the role the replacer gives the word (first/last name)."""
    original = text[region.start:region.end]
    sur = replacer.replacement(region, original)
    if sur is None:
        return []
    ow, sw = list(_WORD.finditer(original)), _WORD.findall(sur)
    if len(ow) != len(sw):
        return []
    named = [o for o in ow if len(o.group()) > 1]
    out = []
    for o, s in zip(ow, sw, strict=True):
        if len(o.group()) < 2:
            continue
        if len(named) > 1:
            role = names.LAST if o is named[-1] else names.FIRST
        else:
            role = replacer._single_role(o.group())  # noqa: SLF001 - same decision as the replacer
        out.append((o.group(), s, region.start + o.start(), role))
    return out


def polish(shared: Path, seed: int = 1) -> dict[str, Any]:
    if not inflect_pl.available():
        return {"skipped": "morfeusz2 not installed"}
    docs = list(read_jsonl(shared / "data" / "pl-dev.jsonl"))
    replacer = SurrogateReplacer(None, "pl", seed)
    counts: Counter[str] = Counter()
    for d in docs:
        regions = [r for r in gold_regions(d, {}) if r.type == "PER"]
        replacer.observe(d["text"], regions)
        for r in regions:
            for orig, sur, _pos, role in _pairs_roles(replacer, d["text"], r):
                counts["words"] += 1
                readings = inflect_pl.analyse(orig, role)
                if not readings or not readings[0].lemma[:1].isupper():
                    counts["unanalysable"] += 1
                    continue
                counts["analysable"] += 1
                if orig != readings[0].base:
                    counts["inflected"] += 1
                if inflect_pl.same_reading(orig, sur, role):
                    counts["correct"] += 1
                    if orig != readings[0].base:
                        counts["correct_inflected"] += 1
    return dict(counts)


def _spacy_cs() -> Any:
    extra = os.environ.get("PSAN_CS_MORPH_PATH", "")
    if extra and Path(extra).is_dir() and extra not in sys.path:
        sys.path.append(extra)
    try:
        import cs_core_news_sm  # type: ignore[import-not-found]
    except ImportError:
        return None
    return cs_core_news_sm.load()


def _case_at(doc: Any, offset: int) -> str:
    for tok in doc:
        if tok.idx <= offset < tok.idx + len(tok.text):
            return "|".join(tok.morph.get("Case"))
    return ""


def czech(shared: Path, seed: int = 1) -> dict[str, Any]:
    docs = [d for d in read_jsonl(shared / "data" / "cnec-dtest.jsonl") if any(s["label"] == "P" for s in d["spans"])]
    replacer = SurrogateReplacer(None, "cs", seed)
    nlp = _spacy_cs()
    counts: Counter[str] = Counter()
    attested = _attested(shared) if nlp is None else set()
    for d in docs:
        text = d["text"]
        regions = [r for r in gold_regions(d, {}) if r.type == "P"]
        replacer.observe(text, regions)
        pairs = [p for r in regions for p in _pairs(replacer, text, r)]
        if not pairs:
            continue
        if nlp is None:
            for orig, sur, _pos in pairs:
                counts["words"] += 1
                form = names.analyse_word(orig, "cs", names.LAST)
                if form.cs is not None and form.cs.slot != "1":
                    counts["inflected"] += 1
                    counts["attested"] += sur in attested
            continue
        sur_text: list[str] = []
        base_text: list[str] = []
        offsets: list[int] = []
        base_offsets: list[int] = []
        shift = base_shift = pos = 0
        for orig, sur, at in pairs:
            sur_text.append(text[pos:at])
            base_text.append(text[pos:at])
            offsets.append(at + shift)
            base_offsets.append(at + base_shift)
            lemma = _lemma_of(replacer, sur)
            sur_text.append(sur)
            base_text.append(lemma)
            shift += len(sur) - len(orig)
            base_shift += len(lemma) - len(orig)
            pos = at + len(orig)
        sur_text.append(text[pos:])
        base_text.append(text[pos:])
        d_orig, d_sur, d_base = nlp(text), nlp("".join(sur_text)), nlp("".join(base_text))
        for (_orig, _sur, at), o_sur, o_base in zip(pairs, offsets, base_offsets, strict=True):
            case = _case_at(d_orig, at)
            if not case:
                continue
            counts["words_with_case"] += 1
            counts["nominative" if case == "Nom" else "oblique"] += 1
            ok = _case_at(d_sur, o_sur) == case
            counts["correct"] += ok
            counts["baseline_correct"] += _case_at(d_base, o_base) == case
            if case != "Nom":
                counts["oblique_correct"] += ok
                counts["oblique_baseline_correct"] += _case_at(d_base, o_base) == case
    counts["checker"] = 0 if nlp is None else 1
    return dict(counts)


def _lemma_of(replacer: SurrogateReplacer, surface: str) -> str:
    """The nominative the replacer chose for a surrogate word (baseline: no inflection)."""
    for lemma in replacer._words.values():  # noqa: SLF001 - evaluation peeks at the entity table
        if surface.casefold().startswith(lemma.casefold()[:max(2, len(lemma) - 3)]):
            return lemma
    return surface


def _attested(shared: Path) -> set[str]:
    words: set[str] = set()
    for d in read_jsonl(shared / "data" / "cnec-train.jsonl"):
        for s in d["spans"]:
            if s["label"] in ("pf", "ps"):
                words.update(_WORD.findall(d["text"][s["start"]:s["end"]]))
    return words


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} = {100 * a / b:.1f} %" if b else "n/a"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=default_shared())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pl = polish(args.shared, args.seed)
    print("Polish (pl-dev PER, Morfeusz2 reading check)")
    if "skipped" in pl:
        print("  skipped:", pl["skipped"])
    else:
        print("  name words:", pl.get("words", 0), " analysable by Morfeusz:", pl.get("analysable", 0),
              " foreign/unknown:", pl.get("unanalysable", 0))
        print("  correct among analysable:", _pct(pl.get("correct", 0), pl.get("analysable", 0)))
        print("  correct among inflected (non-lemma) originals:",
              _pct(pl.get("correct_inflected", 0), pl.get("inflected", 0)))
        print("  correct overall (unknown counted wrong):", _pct(pl.get("correct", 0), pl.get("words", 0)))
    cs = czech(args.shared, args.seed)
    if cs.get("checker"):
        print("Czech (cnec-dtest P, spaCy cs_core_news_sm case agreement in context)")
        print("  name words with a Case:", cs.get("words_with_case", 0), " oblique:", cs.get("oblique", 0))
        print("  case kept, all:", _pct(cs.get("correct", 0), cs.get("words_with_case", 0)),
              " baseline (uninflected lemma):", _pct(cs.get("baseline_correct", 0), cs.get("words_with_case", 0)))
        print("  case kept, oblique cases:", _pct(cs.get("oblique_correct", 0), cs.get("oblique", 0)),
              " baseline:", _pct(cs.get("oblique_baseline_correct", 0), cs.get("oblique", 0)))
    else:
        print("Czech (cnec-dtest P; no analyser: attestation of inflected forms in CNEC-train names)")
        print("  inflected forms attested:", _pct(cs.get("attested", 0), cs.get("inflected", 0)))


if __name__ == "__main__":
    main()
