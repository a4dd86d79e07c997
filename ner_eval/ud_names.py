"""``python -m ner_eval.ud_names TREEBANK.conllu … --out NAMES.jsonl``: a names corpus like inflect-cs-dev.

Why: a rule or weight chosen looking at one fold of ``inflect-cs-dev`` needs text nobody chose it on; the
names of another Czech treebank (FicTree's fiction) are such text.  The corpus is built the way the dev file
was: each sentence with a name is a document (its id the sentence id), the text is rebuilt from the tokens
and ``SpaceAfter=No``, a span is a maximal run of proper nouns labelled by its words' UD ``NameType``
(Giv/Sur → PERSON, else Geo → LOCATION, else Com → ORGANIZATION; other runs dropped), and its gold
``features`` are those of the run's last word (Case, Gender, Number, Animacy).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: features the inflection score compares (the gold of a span: its last word's)
GOLD_FEATURES = ("Case", "Gender", "Number", "Animacy")


def _feats(column: str) -> dict[str, str]:
    return dict(f.split("=", 1) for f in column.split("|") if "=" in f)


def _label(types: set[str]) -> str:
    if types & {"Giv", "Sur"}:
        return "PERSON"
    if "Geo" in types:
        return "LOCATION"
    return "ORGANIZATION" if "Com" in types else ""


def _sentences(path: Path) -> Iterator[tuple[str, list[list[str]]]]:
    """(sentence id, token rows) of a CoNLL-U file; a multiword token's range row stands for its words."""
    sid, rows = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# sent_id"):
            sid = line.split("=", 1)[1].strip()
        elif not line.strip():
            if rows:
                yield sid, rows
            sid, rows = "", []
        elif not line.startswith("#"):
            rows.append(line.split("\t"))
    if rows:
        yield sid, rows


def sentence_record(sid: str, rows: list[list[str]], lang: str, source: str) -> dict[str, Any] | None:
    """The corpus line of one sentence (``None`` without a labelled name)."""
    text, tokens, skip_to = "", [], 0  # tokens: (start, end, UPOS, feats)
    for row in rows:
        if "." in row[0]:
            continue  # an empty node
        if "-" in row[0]:
            skip_to = int(row[0].split("-")[1])
            start = len(text)
            text += row[1]
            tokens.append((start, len(text), "", {}))
        elif int(row[0]) <= skip_to:
            continue
        else:
            start = len(text)
            text += row[1]
            tokens.append((start, len(text), row[3], _feats(row[5])))
        if "SpaceAfter=No" not in row[9]:
            text += " "
    spans, run = [], []
    for tok in [*tokens, (0, 0, "", {})]:
        if tok[2] == "PROPN":
            run.append(tok)
            continue
        if run:
            label = _label({t for r in run for t in r[3].get("NameType", "").split(",")})
            if label:
                spans.append({"start": run[0][0], "end": run[-1][1], "label": label, "entity": None,
                              "identifier": None,
                              "features": {k: run[-1][3][k] for k in GOLD_FEATURES if k in run[-1][3]}})
        run = []
    if not spans:
        return None
    return {"id": sid, "lang": lang, "source": source, "text": text.rstrip(), "spans": spans}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ner_eval.ud_names", description=__doc__.splitlines()[0])
    p.add_argument("treebank", nargs="+", help="CoNLL-U files")
    p.add_argument("--out", required=True, help="JSONL to write")
    p.add_argument("--lang", default="cs")
    args = p.parse_args(argv)
    n_lines = n_spans = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for tb in args.treebank:
            for sid, rows in _sentences(Path(tb)):
                rec = sentence_record(sid, rows, args.lang, f"ud:{Path(tb).stem}")
                if rec is not None:
                    out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    n_lines, n_spans = n_lines + 1, n_spans + len(rec["spans"])
    print(f"{n_lines} sentences, {n_spans} names → {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
