"""Which case a preposition of two cases takes after a given word, learned from the treebanks.

Why: "o", "na", "v", "za", "po", "před" … govern the locative or the accusative (the instrumental or the
accusative), and a name's form often has both readings ("o Radku": Radek's locative or Radka's
accusative).  The word that governs the prepositional phrase decides ("mluvit o" + locative, "zájem o",
"přijít o" + accusative), and the UD treebanks the tagger is trained on say which: every ``case``
relation gives (governor's lemma, preposition) → the case of the preposition's nominal.  The table is
written beside the tagger (``valency-<lang>.json``, the same training sentences, the same exclusions)
and read by :func:`psan.tool.morph.tagger.valency_table`; without it nothing changes.  The governor is
the word right before the preposition, its lemma looked up among the governor forms the treebanks had
(the tagger gives no lemmas).
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

#: the file of a language's table, inside the models folder
VALENCY_NAME = "valency-{lang}.json"
#: at least this many examples, and this share for one case, make a preference
MIN_EXAMPLES = 2
MIN_SHARE = 0.75


def valency_path(models_dir: str | Path, lang: str) -> Path:
    """Where the valency table of ``lang`` lives in a models folder."""
    return Path(models_dir) / VALENCY_NAME.format(lang=lang)


def learn(conllu: str) -> dict[str, dict[str, object]]:
    """(governor lemma, preposition) → case counts, and governor form → lemma, from CoNLL-U text."""
    cases: dict[str, Counter[str]] = defaultdict(Counter)
    lemmas: dict[str, Counter[str]] = defaultdict(Counter)
    for block in conllu.split("\n\n"):
        rows = {}
        for line in block.splitlines():
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                feats = dict(f.split("=", 1) for f in cols[5].split("|") if "=" in f)
                rows[int(cols[0])] = (cols[1].casefold(), cols[2].casefold(), feats, int(cols[6] or 0), cols[7])
        for form, _lemma, _feats, head, rel in rows.values():
            if rel != "case" or head not in rows:
                continue
            _nform, _nlemma, nfeats, governor, _nrel = rows[head]
            if "Case" not in nfeats or governor not in rows:
                continue
            gform, glemma = rows[governor][0], rows[governor][1]
            if not gform.isalpha() or not glemma.isalpha():
                continue
            cases[f"{glemma}|{form}"][nfeats["Case"]] += 1
            lemmas[gform][glemma] += 1
    return {"cases": {k: dict(v) for k, v in sorted(cases.items())},
            "lemmas": {f: c.most_common(1)[0][0] for f, c in sorted(lemmas.items())}}


def write(conllu: str, out: str | Path) -> Path:
    """Learn the table of ``conllu`` and write it to ``out`` (JSON)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(learn(conllu), ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def load(path: str | Path) -> dict[str, dict[str, object]] | None:
    """A written table (``None`` when the file is absent)."""
    file = Path(path)
    if not file.is_file():
        return None
    return json.loads(file.read_text(encoding="utf-8"))


def preferred_case(table: dict[str, dict[str, object]] | None, governor: str, preposition: str) -> str:
    """The case ``preposition`` takes after the word ``governor`` ("" when the table has no clear answer)."""
    if table is None:
        return ""
    lemma = table["lemmas"].get(governor.casefold())
    counts = table["cases"].get(f"{lemma}|{preposition.casefold()}") if lemma else None
    if not counts:
        return ""
    case, n = max(counts.items(), key=lambda kv: kv[1])
    total = sum(counts.values())
    return str(case) if total >= MIN_EXAMPLES and n / total >= MIN_SHARE else ""
