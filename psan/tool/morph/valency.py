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

Verbs (``verbs``): a name right after a verb is its subject or its object ("padol Jeruzalem" Nom,
"kritizoval Irán" Acc), and the forms of inanimate names are one.  The treebanks say which case a
noun right after a verb stands in, by whether the verb agrees with the noun in number and gender (a
participle that cannot agree has another subject: "obsadila Porýnie" → Acc) and whether a nominative
stands before the verb in its clause, within the words the tagger is given at run time; and, where a verb
lemma has examples of its own, that verb's cases (smoothed towards its class: a handful of sentences
must not decide alone).
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
#: words that open a clause (a verb's subject is looked for after the last of them)
CLAUSE_OPENERS = frozenset({",", ";", ":", "(", "–", "-", "\"", "„", "“", "a", "ale", "že", "aby", "keď", "když",
                            "ak", "pokiaľ", "pokud", "alebo", "nebo", "však", "ako", "jak", "protože", "pretože"})
#: how many words before a verb are searched for its subject (the analysis tags 4 words before a name)
SUBJECT_WINDOW = 3
#: a verb lemma's own examples count against this many of its class's (additive smoothing)
VERB_SMOOTHING = 3.0


def valency_path(models_dir: str | Path, lang: str) -> Path:
    """Where the valency table of ``lang`` lives in a models folder."""
    return Path(models_dir) / VALENCY_NAME.format(lang=lang)


def agreement(verb: dict[str, str], number: str, gender: str) -> str:
    """Whether a verb's features can agree with a noun of ``number`` and ``gender`` as its subject: "y", "n"
    (another number or gender, or a first or second person), "?" (the verb shows no number)."""
    if not verb.get("Number"):
        return "?"
    if verb.get("Person") in ("1", "2") or verb["Number"] != number:
        return "n"
    return "y" if not verb.get("Gender") or gender in verb["Gender"].split(",") else "n"


def subject_before(words: list[tuple[str, str, dict[str, str]]], verb: int) -> bool:
    """Whether a nominative noun or pronoun (or a relative determiner: "ktoré zvolilo") stands before the
    verb at index ``verb`` in its clause, within :data:`SUBJECT_WINDOW` words; ``words`` are
    (form, UPOS, feats)."""
    for k in range(verb - 1, max(-1, verb - 1 - SUBJECT_WINDOW), -1):
        form, upos, feats = words[k]
        if form.casefold() in CLAUSE_OPENERS or form in (".", "!", "?"):
            return False
        if feats.get("Case") == "Nom" and (upos in ("NOUN", "PROPN", "PRON")
                                           or upos == "DET" and "Rel" in feats.get("PronType", "").split(",")):
            return True
    return False


def _verb_class(agree: str, subject: bool) -> str:
    return f"{agree}|{int(subject)}"


def _learn_verbs(rows: dict[int, tuple[str, str, dict[str, str], int, str, str]],
                 verbs: dict[str, Counter[str]], classes: dict[str, Counter[str]],
                 forms: dict[str, Counter[str]]) -> None:
    """Count the case of every noun right after a verb (no preposition between), by the verb's lemma and class."""
    words = [(r[0], r[5], r[2]) for _i, r in sorted(rows.items())]
    ids = sorted(rows)
    for k, i in enumerate(ids[:-1]):
        form, lemma, feats, _head, _rel, upos = rows[i]
        if upos not in ("VERB", "AUX") or not form.isalpha():
            continue
        forms[form][lemma] += 1
        _nform, _nlemma, nfeats, _nhead, _nrel, nupos = rows[ids[k + 1]]
        if nupos not in ("NOUN", "PROPN") or "Case" not in nfeats:
            continue
        agree = agreement(feats, nfeats.get("Number", ""), nfeats.get("Gender", ""))
        classes[_verb_class(agree, subject_before(words, k))][nfeats["Case"]] += 1
        verbs[lemma][nfeats["Case"]] += 1


def learn(conllu: str) -> dict[str, dict[str, object]]:
    """(governor lemma, preposition) → case counts, and governor form → lemma, from CoNLL-U text; and the
    cases of nouns right after verbs (``verbs``: by verb class, by verb lemma, verb form → lemma)."""
    cases: dict[str, Counter[str]] = defaultdict(Counter)
    lemmas: dict[str, Counter[str]] = defaultdict(Counter)
    verbs: dict[str, Counter[str]] = defaultdict(Counter)
    classes: dict[str, Counter[str]] = defaultdict(Counter)
    verb_forms: dict[str, Counter[str]] = defaultdict(Counter)
    for block in conllu.split("\n\n"):
        rows = {}
        for line in block.splitlines():
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                feats = dict(f.split("=", 1) for f in cols[5].split("|") if "=" in f)
                rows[int(cols[0])] = (cols[1].casefold(), cols[2].casefold(), feats, int(cols[6] or 0), cols[7],
                                      cols[3])
        _learn_verbs(rows, verbs, classes, verb_forms)
        for form, _lemma, _feats, head, rel, _upos in rows.values():
            if rel != "case" or head not in rows:
                continue
            _nform, _nlemma, nfeats, governor, _nrel, _nupos = rows[head]
            if "Case" not in nfeats or governor not in rows:
                continue
            gform, glemma = rows[governor][0], rows[governor][1]
            if not gform.isalpha() or not glemma.isalpha():
                continue
            cases[f"{glemma}|{form}"][nfeats["Case"]] += 1
            lemmas[gform][glemma] += 1
    return {"cases": {k: dict(v) for k, v in sorted(cases.items())},
            "lemmas": {f: c.most_common(1)[0][0] for f, c in sorted(lemmas.items())},
            "verbs": {"classes": {k: dict(v) for k, v in sorted(classes.items())},
                      "cases": {k: dict(v) for k, v in sorted(verbs.items())},
                      "lemmas": {f: c.most_common(1)[0][0] for f, c in sorted(verb_forms.items())}}}


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


def verb_cases(table: dict[str, dict[str, object]] | None, verb: str, feats: dict[str, str], subject: bool,
               number: str, gender: str) -> dict[str, float]:
    """The share of each case of a noun of ``number`` and ``gender`` right after the verb form ``verb``
    (tagged ``feats``; ``subject``: a nominative before it in its clause), moved towards the verb lemma's
    own examples: the nominative's share by whether the verb agrees with such a noun, the other cases'
    whatever the noun's number and gender (an object need not agree: "ovládal Jardu" says nothing of
    Jarda's gender).  ``{}`` without a table (or one written before verbs were learned)."""
    verbs = table.get("verbs") if table is not None else None
    if not verbs:
        return {}
    classes: dict[str, dict[str, int]] = verbs["classes"]
    counts = Counter(classes.get(_verb_class(agreement(feats, number, gender), subject), {}))
    pooled = Counter()  # the other cases do not depend on agreement: all classes of the subject flag
    for agree in ("y", "n", "?"):
        pooled.update(classes.get(_verb_class(agree, subject), {}))
    total, pooled_total = sum(counts.values()), sum(pooled.values())
    if not total or not pooled_total:
        return {}
    shares = {c: pooled[c] / pooled_total for c in pooled if c != "Nom"}
    shares["Nom"] = counts["Nom"] / total  # a subject agrees with its verb: only the nominative asks
    lemma = verbs["lemmas"].get(verb.casefold())
    own: dict[str, int] = verbs["cases"].get(lemma, {}) if lemma else {}
    n = sum(own.values())
    return {c: (own.get(c, 0) + VERB_SMOOTHING * shares.get(c, 0.0)) / (n + VERB_SMOOTHING)
            for c in set(shares) | set(own)}
