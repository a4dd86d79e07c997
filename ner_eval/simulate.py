"""A simulated annotation session: an oracle annotator works with psan's real rules engine.

Why: recall of the recognizers says how much the annotator is *shown*; what
matters in practice is how much work it takes to reach a fully masked
corpus.  The session follows the app (thesis chapters 1.4 and 3.4):

1. Pre-annotation: one ``NE_TYPE`` rule with confidence 0 per entity type the
   pipeline produced (created when the type first appears, project-wide), so
   every recognized span is SUSPICIOUS.
2. The annotator is shown every suspicious span of a document in document order
   and decides it: PRIVATE if it overlaps a gold span, else PUBLIC.

   * **by type** – a ``WORD_TYPE`` rule with confidence −1 (private) or +1
     (public) for that exact token sequence, when every occurrence of the
     sequence in the whole corpus gets the same verdict (the oracle knows the
     gold, so it never creates a rule that is wrong somewhere);
   * **by token** – otherwise a :class:`~psan.tool.decisions.voting.TokenDecision` on that span only
     (also for a span crossing a sentence boundary: no sequence rule can match it).

   A PRIVATE decision also creates a lookup ``WORD_TYPE`` rule with
   confidence 0 for the sequence (the same words become suspicious elsewhere:
   the thesis' "plus" inside the app).
3. When nothing is suspicious any more, the annotator marks the first gold
   span that is not fully private **by hand** (a PRIVATE token decision on the
   tokens it touches), which creates the lookup rule too, so its other
   occurrences are *shown* (step 2) rather than marked by hand again.  Steps
   2–3 repeat until the document is stable; rules carry over to later documents.

Correctness of batching: the document is re-annotated after each batch of
decisions.  Within a batch, an earlier *by type* decision decides every later
span with the same token sequence, so such spans are skipped (they are
re-checked in the next round anyway); token decisions only decide their own
span; lookup rules only *add* suspicious spans, which the next round shows.

Final recall (gold spans whose every non-whitespace character is in a
private region) must be 1.0 – the simulator asserts it.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from ner_eval.corpus import CorpusDoc, gold_spans
from ner_eval.plus import plus_spans
from ner_eval.tab import is_covered
from psan.tool.decisions.rules import Rule, RuleSet, RuleType, sentence_segments
from psan.tool.decisions.voting import TokenDecision, annotate, decided_regions, final_decision
from psan.tool.detection.merge import align
from psan.tool.text.document import Category, Decision, Document, Entity
from psan.tool.text.tokens import tokenize

Seq = tuple[str, ...]
MAX_ROUNDS = 1000


@dataclass(slots=True)
class SimResult:
    """Work and outcome of one simulated session over a corpus."""

    name: str
    docs: int = 0
    tokens: int = 0  # regex-tokenizer tokens (same denominator for every pipeline)
    gold: int = 0
    by_type: int = 0
    by_token: int = 0
    by_hand: int = 0
    private_decisions: int = 0
    public_decisions: int = 0
    rules_ne_type: int = 0
    rules_word_type: int = 0
    rounds: int = 0
    covered: int = 0
    per_doc_decisions: list[int] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        return self.by_type + self.by_token + self.by_hand

    @property
    def per_1k_tokens(self) -> float:
        return 1000 * self.decisions / self.tokens if self.tokens else 0.0

    @property
    def hand_share(self) -> float | None:
        return self.by_hand / self.gold if self.gold else None

    @property
    def recall(self) -> float | None:
        return self.covered / self.gold if self.gold else None

    def to_dict(self) -> dict[str, object]:
        out = asdict(self)
        del out["per_doc_decisions"]
        out.update(decisions=self.decisions, per_1k_tokens=self.per_1k_tokens, hand_share=self.hand_share,
                   recall=self.recall)
        return out


def with_plus(doc: Document) -> Document:
    """A copy of ``doc`` whose entities also include the plus occurrences (type ``PLUS``).

    Why a separate type: the NE_TYPE rule ``PLUS`` makes them suspicious like the NER's own spans.
    """
    have = {(e.first_token, e.end_token) for e in doc.entities}
    spans = [doc.char_range(e.first_token, e.end_token) for e in doc.entities]
    extra: list[Entity] = []
    for s, e in plus_spans(doc.text, spans):
        rng = align(doc.tokens, s, e)
        if rng is not None and rng not in have:
            have.add(rng)
            extra.append(Entity(rng[0], rng[1], "PLUS", Category.OTHER, "plus", 0.5))
    return replace(doc, entities=sorted([*doc.entities, *extra], key=lambda x: (x.first_token, -x.end_token)))


class Session:
    """One project: rules that carry over between the documents of a corpus."""

    def __init__(self, corpus: Sequence[CorpusDoc], docs: Sequence[Document]) -> None:
        if len(corpus) != len(docs):
            raise ValueError("one processed document per corpus document expected")
        self.corpus = list(corpus)
        self.docs = list(docs)
        self.rules: list[Rule] = []
        self._ruleset: RuleSet | None = None
        self.ne_types: set[str] = set()
        self.word_rules: set[tuple[Seq, float]] = set()
        self.gold = [gold_spans(c) for c in self.corpus]
        self.texts = [[d.text[t.start:t.end] for t in d.tokens] for d in self.docs]
        self.token_gold = [self._token_gold(c, d, g) for c, d, g in zip(self.corpus, self.docs, self.gold, strict=True)]
        self.first_index: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for di, toks in enumerate(self.texts):
            for i, tok in enumerate(toks):
                self.first_index[tok].append((di, i))
        self._verdicts: dict[Seq, bool | None] = {}
        self.segment_of = [self._segments(d) for d in self.docs]

    @staticmethod
    def _segments(doc: Document) -> list[int]:
        """Segment number of each token: sequence rules never match across a sentence boundary."""
        seg = [0] * len(doc.tokens)
        for n, (a, b) in enumerate(sentence_segments(doc)):
            for i in range(a, b):
                seg[i] = n
        return seg

    @staticmethod
    def _token_gold(corpus_doc: CorpusDoc, doc: Document, gold: Sequence) -> list[bool]:
        """Does each token overlap a gold span?"""
        flags = [False] * len(doc.tokens)
        for g in gold:
            rng = align(doc.tokens, g.start, g.end)
            if rng is not None:
                for i in range(*rng):
                    flags[i] = True
        return flags

    # --- rules -------------------------------------------------------------------------------------
    def _add(self, kind: RuleType, condition: Seq | str, confidence: float) -> None:
        self.rules.append(Rule(len(self.rules) + 1, kind, condition, confidence=confidence))
        self._ruleset = None

    def _add_word(self, seq: Seq, confidence: float) -> None:
        if (seq, confidence) not in self.word_rules:
            self.word_rules.add((seq, confidence))
            self._add(RuleType.WORD_TYPE, seq, confidence)

    @property
    def ruleset(self) -> RuleSet:
        if self._ruleset is None:
            self._ruleset = RuleSet(self.rules)
        return self._ruleset

    def verdict(self, seq: Seq) -> bool | None:
        """True/False if every occurrence of ``seq`` in the corpus is private/public, None if mixed."""
        if seq in self._verdicts:
            return self._verdicts[seq]
        seen: set[bool] = set()
        n = len(seq)
        for di, i in self.first_index.get(seq[0], ()):
            toks = self.texts[di]
            if tuple(toks[i:i + n]) == seq:
                seen.add(any(self.token_gold[di][i:i + n]))
                if len(seen) > 1:
                    break
        result = next(iter(seen)) if len(seen) == 1 else None
        self._verdicts[seq] = result
        return result

    @staticmethod
    def _private_mask(doc: Document, anns: Sequence) -> bytearray:
        """0/1 per character: inside a final private region (what the exported document masks)."""
        mask = bytearray(len(doc.text))
        for r in decided_regions(doc, anns):
            mask[r.start:r.end] = b"\x01" * (r.end - r.start)
        return mask

    # --- the session -------------------------------------------------------------------------------
    def run_doc(self, di: int, result: SimResult) -> None:
        """Annotate one document to completion (see the module docstring)."""
        doc, text, toks, gold_tok = self.docs[di], self.corpus[di].text, self.texts[di], self.token_gold[di]
        for etype in sorted({e.type for e in doc.entities} - self.ne_types):
            self.ne_types.add(etype)
            self._add(RuleType.NE_TYPE, etype, 0.0)
        decisions: list[TokenDecision] = []
        before = result.decisions
        for _ in range(MAX_ROUNDS):
            result.rounds += 1
            anns = annotate(doc, self.ruleset, decisions)
            changed = False
            decided_by_type: set[Seq] = set()
            for ann in anns:
                if final_decision(ann) is not Decision.SUSPICIOUS:
                    continue
                seq = tuple(toks[ann.first_token:ann.end_token])
                if seq in decided_by_type:
                    continue
                private = any(gold_tok[ann.first_token:ann.end_token])
                segs = self.segment_of[di]
                # a WORD_TYPE rule cannot reach a span that crosses a sentence boundary (an entity may)
                rule_reaches = segs[ann.first_token] == segs[ann.end_token - 1]
                if rule_reaches and self.verdict(seq) is private:
                    self._add_word(seq, -1.0 if private else 1.0)
                    decided_by_type.add(seq)
                    result.by_type += 1
                else:
                    decisions.append(TokenDecision(ann.first_token, ann.end_token,
                                                   Decision.PRIVATE if private else Decision.PUBLIC))
                    result.by_token += 1
                if private:
                    result.private_decisions += 1
                    self._add_word(seq, 0.0)
                else:
                    result.public_decisions += 1
                changed = True
            if changed:
                continue
            mask = self._private_mask(doc, anns)
            for g in self.gold[di]:
                if is_covered(text, mask, g.start, g.end):
                    continue
                rng = align(doc.tokens, g.start, g.end)
                if rng is None:
                    raise AssertionError(f"gold span {g.start}-{g.end} of {self.corpus[di].id} has no token")
                decisions.append(TokenDecision(rng[0], rng[1], Decision.PRIVATE))
                result.by_hand += 1
                result.private_decisions += 1
                self._add_word(tuple(toks[rng[0]:rng[1]]), 0.0)
                changed = True
                break  # the new lookup rule may show later gold spans as suspicious: re-annotate first
            if not changed:
                break
        else:  # pragma: no cover - a bug guard
            raise RuntimeError(f"document {self.corpus[di].id} did not converge in {MAX_ROUNDS} rounds")
        mask = self._private_mask(doc, annotate(doc, self.ruleset, decisions))
        result.covered += sum(1 for g in self.gold[di] if is_covered(text, mask, g.start, g.end))
        result.gold += len(self.gold[di])
        result.tokens += len(tokenize(text, self.corpus[di].lang)[0])
        result.docs += 1
        result.per_doc_decisions.append(result.decisions - before)

    def run(self, name: str) -> SimResult:
        """The whole corpus in order; asserts final recall 1.0."""
        result = SimResult(name)
        for di in range(len(self.docs)):
            self.run_doc(di, result)
        result.rules_ne_type = len(self.ne_types)
        result.rules_word_type = len(self.word_rules)
        assert result.covered == result.gold, f"{name}: final recall {result.recall} != 1.0"
        return result


def simulate(name: str, corpus: Sequence[CorpusDoc], docs: Sequence[Document], plus: bool = False) -> SimResult:
    """Run a session on processed documents (``plus``: add the plus occurrences as ``PLUS`` entities first)."""
    if plus:
        docs = [with_plus(d) for d in docs]
    return Session(corpus, docs).run(name)
