"""Benchmark: compile 10,000 word-type rules and match them on a 1,000,000-token document.

Run: ``.venv/bin/python bench/bench_rules.py [--rules N] [--tokens N] [--naive-tokens N] [--seed S]``

Prints compile and match times of :class:`psan.tool.decisions.rules.RuleSet` and a naive
baseline (every rule checked at every token position) measured in the same run
on a sample of the document and extrapolated linearly to the full length.
Target: 10,000 rules x 1M tokens in under 10 s.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from faker.providers.lorem.cs_CZ import Provider as CsLorem  # noqa: E402
from faker.providers.person.cs_CZ import Provider as CsPerson  # noqa: E402
from faker.providers.person.sk_SK import Provider as SkPerson  # noqa: E402
from faker.providers.person.sl_SI import Provider as SlPerson  # noqa: E402

from psan.tool.decisions.rules import Rule, RuleSet, RuleType, sentence_segments  # noqa: E402
from psan.tool.text.document import Document, Sentence, Token  # noqa: E402

TARGET_SECONDS = 10.0


def name_lists() -> tuple[list[str], list[str]]:
    firsts: set[str] = set()
    lasts: set[str] = set()
    for p in (CsPerson, SkPerson, SlPerson):
        firsts.update(list(p.first_names))
        lasts.update(list(p.last_names))
    return sorted(firsts), sorted(lasts)


def make_rules(n: int, firsts: list[str], lasts: list[str], rnd: random.Random) -> list[Rule]:
    """1–3 token name rules (30 % one, 50 % two, 20 % three tokens), 10 % case-insensitive."""
    seen: set[tuple[str, ...]] = set()
    rules: list[Rule] = []
    while len(rules) < n:
        x = rnd.random()
        if x < 0.3:
            cond: tuple[str, ...] = (rnd.choice(lasts if rnd.random() < 0.7 else firsts),)
        elif x < 0.8:
            cond = (rnd.choice(firsts), rnd.choice(lasts))
        else:
            cond = (rnd.choice(firsts), rnd.choice(firsts), rnd.choice(lasts))
        if cond in seen:
            continue
        seen.add(cond)
        rules.append(Rule(len(rules), RuleType.WORD_TYPE, cond, confidence=rnd.choice([-1.0, 0.0, 1.0]),
                          case_sensitive=rnd.random() >= 0.1))
    return rules


def make_document(n_tokens: int, rules: list[Rule], firsts: list[str], lasts: list[str],
                  rnd: random.Random) -> Document:
    """Czech lorem words with names: 8 % rule conditions, 4 % random names; sentences of 5–25 tokens."""
    words = list(CsLorem.word_list)
    conditions = [r.condition for r in rules]
    out: list[str] = []
    sentences: list[Sentence] = []
    sent_start, sent_len = 0, rnd.randint(5, 25)
    while len(out) < n_tokens:
        x = rnd.random()
        if x < 0.08:
            out.extend(rnd.choice(conditions))
        elif x < 0.12:
            out.append(rnd.choice(firsts) if rnd.random() < 0.5 else rnd.choice(lasts))
        else:
            out.append(rnd.choice(words))
        if len(out) - sent_start >= sent_len:
            out.append(".")
            sentences.append(Sentence(sent_start, len(out)))
            sent_start, sent_len = len(out), rnd.randint(5, 25)
    del out[n_tokens:]
    sentences = [Sentence(s.first_token, min(s.end_token, n_tokens)) for s in sentences if s.first_token < n_tokens]
    if sent_start < n_tokens:
        sentences.append(Sentence(sent_start, n_tokens))
    tokens: list[Token] = []
    parts: list[str] = []
    pos = 0
    for i, w in enumerate(out):
        if i and w != ".":
            parts.append(" ")
            pos += 1
        parts.append(w)
        tokens.append(Token(i, pos, pos + len(w)))
        pos += len(w)
    return Document(text="".join(parts), tokens=tokens, sentences=sentences, language="cs")


def naive_match(doc: Document, rules: list[Rule], n_tokens: int) -> set[tuple[int, int, int]]:
    """Check every rule at every position of the first ``n_tokens`` tokens (the baseline)."""
    texts = [doc.token_text(i) for i in range(min(n_tokens, len(doc.tokens)))]
    folded = [t.casefold() for t in texts]
    seg_end = [0] * len(texts)
    for a, b in sentence_segments(doc):
        for i in range(a, min(b, len(texts))):
            seg_end[i] = min(b, len(texts))
    prepared = [(list(r.condition) if r.case_sensitive else [t.casefold() for t in r.condition],
                 len(r.condition), r.case_sensitive, r.id) for r in rules]
    found: set[tuple[int, int, int]] = set()
    for i in range(len(texts)):
        end = seg_end[i]
        for cond, n, cs, rid in prepared:
            if i + n <= end and (texts if cs else folded)[i:i + n] == cond:
                found.add((i, i + n, rid))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=int, default=10_000)
    ap.add_argument("--tokens", type=int, default=1_000_000)
    ap.add_argument("--naive-tokens", type=int, default=5_000,
                    help="sample size for the naive baseline (it is ~rules x slower per token)")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    rnd = random.Random(args.seed)

    t0 = time.perf_counter()
    firsts, lasts = name_lists()
    rules = make_rules(args.rules, firsts, lasts, rnd)
    doc = make_document(args.tokens, rules, firsts, lasts, rnd)
    t_gen = time.perf_counter() - t0
    lengths = [len(r.condition) for r in rules]
    print("psan rule matching benchmark")
    print(f"  rules      : {len(rules):,} WORD_TYPE ({lengths.count(1):,} x1, {lengths.count(2):,} x2, "
          f"{lengths.count(3):,} x3 tokens; {sum(not r.case_sensitive for r in rules):,} case-insensitive)")
    print(f"  document   : {len(doc.tokens):,} tokens, {len(doc.sentences):,} sentences, "
          f"{len(doc.text):,} chars (generated in {t_gen:.2f} s, not timed below)")

    t0 = time.perf_counter()
    ruleset = RuleSet(rules)
    t_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    matches = ruleset.match(doc)
    t_match = time.perf_counter() - t0
    n_pairs = sum(len(m.rule_ids) for m in matches)
    total = t_compile + t_match
    print(f"  compile    : {t_compile:8.3f} s")
    print(f"  match      : {t_match:8.3f} s  ({len(doc.tokens) / t_match:,.0f} tokens/s; "
          f"{len(matches):,} spans, {n_pairs:,} rule matches)")
    verdict = "OK" if total < TARGET_SECONDS else "MISSED"
    print(f"  total      : {total:8.3f} s  -> target < {TARGET_SECONDS:.0f} s: {verdict}")

    n_sample = min(args.naive_tokens, len(doc.tokens))
    t0 = time.perf_counter()
    naive = naive_match(doc, rules, n_sample)
    t_naive = time.perf_counter() - t0
    extrapolated = t_naive * len(doc.tokens) / n_sample
    fast = {(m.first_token, m.end_token, rid) for m in matches for rid in m.rule_ids
            if m.end_token <= n_sample}
    # the naive scan sees only the sample, so compare the spans that lie entirely inside it
    agree = fast == naive
    print(f"  naive      : {t_naive:8.3f} s on {n_sample:,} tokens -> extrapolated {extrapolated:,.1f} s "
          f"for {len(doc.tokens):,} tokens")
    print(f"  speed-up   : {extrapolated / t_match:,.0f}x (matching only, automaton vs naive)")
    print(f"  agreement  : automaton and naive give {'the same' if agree else 'DIFFERENT'} "
          f"{len(naive):,} matches on the sample")
    return 0 if agree and total < TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
