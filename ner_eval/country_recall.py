"""Recall of country names in a language's default pipeline, on sentences built from country lists.

Why: a corpus holds a few countries (the shared Swedish dev set 5 places in all); a list of every country,
in a few sentence frames (a plain mention, a genitive, a mention at a sentence start), shows which ones the
pipeline misses.  The lists are those of three independent sources: Faker's locale list, CLDR (Babel) and
ISO 3166 (pycountry).  ``recall``: an entity of any category covers the name whole (it is offered for masking);
``recall_as_place``: a LOCATION entity does.  Prints numbers and the
missed names (public country names, no corpus text)::

    python ner_eval/country_recall.py --language sv --models-dir ../shared/models/nametag
"""
from __future__ import annotations

import argparse
import importlib
import json

from psan.tool.detection.defaults import default_config
from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category

#: sentence frames per language: {0} the name, {0}s its genitive where the language writes one so
FRAMES = {
    "sv": ("Han reste till {0} förra året.", "Enligt {0}s regering är läget lugnt.", "{0} har många invånare."),
    "cs": ("Loni odjel do země jménem {0} na dva týdny.", "{0} má mnoho obyvatel."),
    "en": ("He travelled to {0} last year.", "The government of {0} said so.", "{0} has many inhabitants."),
}
FAKER_LOCALES = {"sv": "sv_SE", "cs": "cs_CZ", "en": "en_US"}


def country_lists(language: str) -> set[str]:
    """The union of Faker's, CLDR's and ISO 3166's names of countries in ``language`` (one-line names only)."""
    from psan.tool.words.country_names import country_names
    faker = importlib.import_module(f"faker.providers.address.{FAKER_LOCALES[language]}").Provider
    names = {str(n) for n in getattr(faker, "countries", ())} | set(country_names(language))
    return {n for n in names if n and n[0].isupper() and not any(ch in n for ch in ",()[]")}


def measure(language: str, models_dir: str | None) -> dict[str, object]:
    """How many list mentions an entity covers whole (any category; a LOCATION one)."""
    pipeline = Pipeline(default_config(language, models_dir), language=language)
    names = sorted(country_lists(language))
    found = as_place = total = 0
    missed: set[str] = set()
    per_frame = []
    for frame in FRAMES[language]:
        frame_found = found
        lines = [frame.format(n) for n in names]
        # each sentence a document of its own: a text of 459 country lines would teach the document-level steps
        # (one string one category, propagation) what no real document holds
        for name, line, doc in zip(names, lines, pipeline.process_many(lines), strict=True):
            at = line.index(name)
            total += 1
            covering = [e.category for e in doc.entities
                        if doc.tokens[e.first_token].start <= at and at + len(name) <= doc.tokens[e.end_token - 1].end]
            found += bool(covering)
            as_place += Category.LOCATION in covering
            if not covering:
                missed.add(name)
        per_frame.append(round((found - frame_found) / len(names), 3))
    return {"language": language, "names": len(names), "mentions": total, "recall": round(found / total, 3),
            "recall_as_place": round(as_place / total, 3), "recall_per_frame": per_frame,
            "missed_names": sorted(missed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--language", default="sv", choices=sorted(FRAMES))
    parser.add_argument("--models-dir", default=None)
    args = parser.parse_args()
    result = measure(args.language, args.models_dir)
    print(json.dumps({k: v for k, v in result.items() if k != "missed_names"}))
    print(json.dumps({"missed": result["missed_names"][:60]}, ensure_ascii=False))


if __name__ == "__main__":
    main()
