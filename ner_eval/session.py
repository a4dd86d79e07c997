"""The honest simulated annotation session: window by window, as the app hands the text out.

Why: :mod:`ner_eval.simulate` decides "by type" knowing the whole corpus, which no annotator
does.  Here the project state is the app's (:mod:`psan.tool.rules` + :mod:`psan.tool.voting`,
rules carried over between documents, decisions re-annotating at once), windows are chosen with
the app's own :func:`psan.tool.windows.first_anchor` / :func:`~psan.tool.windows.plan_window`
(``DEFAULT_WINDOW_SIZE`` tokens, centred on the first suspicious span of the document), and the
person is :class:`ner_eval.annotator.Annotator`, which sees one :class:`WindowView` at a time.

Per document: windows around the first suspicious span until none is left; then the *review
pass* – windows opened (as an admin's "open at") on every stretch of text no window showed yet,
where the annotator marks missed gold spans by hand.  Both workflows pay for it alike.  If a
later rule undoes something in text already seen (a public word-type rule on a word that is
private elsewhere), a *late fix* window is counted for it, so recall 1.0 is reached honestly.

Workflows (:data:`WORKFLOWS`):

* ``thesis`` – the 2021 app: NER only, every entity suspicious (NE_TYPE rules, confidence 0),
  private decisions propagate (lookup rules), no classifier, no entity decisions;
* ``psan`` – psan's default pipeline (NER + patterns + gazetteers) and the levers that paid
  in the measurements of ``ner_eval/results/README.md``.

Levers (``--levers`` overrides the workflow's set, for measuring each one):

* ``auto``: entity types of validated pattern recognizers (e-mails, phones, IBANs, cards, …)
  are private without asking (NE_TYPE rule confidence −1); the annotator only sees them;
* ``entity``: one key (``x``) decides all mentions of an entity, as the app's ``scope: "entity"``
  decision (:mod:`psan.store.entity_decisions`): the mentions in this document by token, the
  entity's mention texts in every document by word-type rules (:class:`ProjectEntities`);
* ``accept``: the app shows a suggestion per suspicious span (:func:`psan.tool.suggest.suggest_private`
  from the project's decisions so far) and one key accepts the window's remaining suggestions;
* ``uncertain`` (measured, not in ``psan``): windows ordered by uncertainty – the next window of a
  document is centred on its suspicious span whose suggestion is least sure
  (:func:`psan.tool.suggest.uncertainty`), instead of the first one in document order;
* ``learn_types``: an entity type the project decided often enough, almost always private or
  always public (twice as many decisions needed), gets that decision automatically (its NE_TYPE
  rule's confidence becomes −1 / +1;
  :func:`psan.tool.suggest.learned_type_confidence`, the app's rule).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from ner_eval.annotator import Action, Annotator, Shown, WindowView
from ner_eval.corpus import CorpusDoc, gold_spans
from ner_eval.tab import is_covered
from psan.tool.document import Category, Decision, Document, Entity, Sentence, Token
from psan.tool.entities import EntitySpan, document_entity_spans
from psan.tool.merge import align
from psan.tool.rules import Rule, RuleSet, RuleType
from psan.tool.suggest import Evidence, learned_type_confidence, suggest_private, uncertainty
from psan.tool.tokenize import tokenize
from psan.tool.voting import TokenDecision, annotate, decided_regions, final_decision
from psan.tool.windows import first_anchor, plan_window

Seq = tuple[str, ...]
Span = tuple[int, int]
#: the app's DEFAULT_WINDOW_SIZE (config/default.py)
WINDOW_SIZE = 300
LEVERS = ("auto", "entity", "accept", "learn_types", "uncertain")
#: workflow -> (pipeline kind, levers on by default)
WORKFLOWS: dict[str, tuple[str, frozenset[str]]] = {
    "thesis": ("ner", frozenset()),
    "psan": ("default", frozenset({"auto", "entity", "accept", "learn_types"})),
}
#: types of psan's validated pattern recognizers (checksums, formats): private without asking
AUTO_PRIVATE_TYPES = frozenset({"EMAIL", "PHONE", "URL", "IBAN", "CARD", "US_SSN", "IP", "RC", "ICO", "DIC",
                                "PESEL", "NIP", "REGON", "PERSONNUMMER", "SSN", "POSTAL_CODE"})
class ProjectEntities:
    """The project's entity tables as the app fills them: every document grouped before annotation.

    Same logic as the app (:func:`psan.tool.entities.document_entity_spans`, which
    :func:`psan.store.entities.update_document_entities` stores); ids are equal across documents,
    so one entity spans the project.  ``at`` finds the entity of a span as
    :func:`psan.store.entity_decisions.entity_mentions` does (the innermost mention containing it).
    """

    def __init__(self, docs: Iterable[Document]) -> None:
        self.by_doc: list[list[EntitySpan]] = []
        #: entity key -> its mentions: (document index, first token, end token, token texts)
        self.mentions: dict[str, list[tuple[int, int, int, Seq]]] = {}
        for i, doc in enumerate(docs):
            spans = document_entity_spans(doc)
            self.by_doc.append(spans)
            for s in spans:
                words = tuple(doc.text[t.start:t.end] for t in doc.tokens[s.first_token:s.end_token])
                self.mentions.setdefault(s.key, []).append((i, s.first_token, s.end_token, words))

    def at(self, doc_index: int, span: Span) -> str | None:
        """The entity key of the innermost mention containing ``span`` in document ``doc_index``."""
        if doc_index >= len(self.by_doc):
            return None
        inside = [s for s in self.by_doc[doc_index] if s.first_token <= span[0] and span[1] <= s.end_token]
        if not inside:
            return None
        return min(inside, key=lambda s: (s.end_token - s.first_token, s.first_token)).key


@dataclass(slots=True)
class SessionResult:
    """Work and outcome of one simulated session over a corpus."""

    corpus: str
    workflow: str
    levers: list[str]
    docs: int = 0
    tokens: int = 0
    gold: int = 0
    covered: int = 0
    windows: int = 0
    review_windows: int = 0
    late_fixes: int = 0
    keystrokes: int = 0
    by_token: int = 0
    by_word_type: int = 0
    by_ne_type: int = 0
    by_entity: int = 0
    by_hand: int = 0
    by_accept: int = 0
    auto_private_spans: int = 0
    seconds: float = 0.0
    #: decisions (not hand-marked) per entity type of the decided span, and how many were private
    by_type: dict[str, list[int]] = field(default_factory=dict)

    @property
    def decisions(self) -> int:
        return self.by_token + self.by_word_type + self.by_ne_type + self.by_entity + self.by_hand + self.by_accept

    def to_dict(self) -> dict[str, object]:
        def per_1k(value: int) -> float:
            return round(1000 * value / self.tokens, 2) if self.tokens else 0.0
        out = asdict(self)
        out.update(decisions=self.decisions, decisions_per_1k_tokens=per_1k(self.decisions),
                   keystrokes_per_1k_tokens=per_1k(self.keystrokes),
                   hand_marked_share=round(self.by_hand / self.gold, 4) if self.gold else 0.0,
                   final_recall=self.covered / self.gold if self.gold else 1.0)
        return out


@dataclass(slots=True)
class _Doc:
    doc: Document
    corpus: CorpusDoc
    texts: list[str]
    gold: list[Span]  # token ranges
    index: int = 0  # position in the project (the entity tables' document)
    decisions: dict[Span, TokenDecision] = field(default_factory=dict)
    seen: bytearray = field(default_factory=bytearray)


class Project:
    """Rules of one project (shared by its documents) and the person working on it."""

    def __init__(self, levers: Iterable[str] = (), entities: ProjectEntities | None = None,
                 window_size: int = WINDOW_SIZE) -> None:
        self.levers = frozenset(levers)
        unknown = self.levers - set(LEVERS)
        if unknown:
            raise ValueError(f"unknown lever(s) {', '.join(sorted(unknown))}; known: {', '.join(LEVERS)}")
        self.entities = entities or ProjectEntities(())
        self.window_size = window_size
        self.rules: dict[tuple[str, object], Rule] = {}
        self._ruleset: RuleSet | None = None
        self.annotator = Annotator(use_entities="entity" in self.levers, use_accept="accept" in self.levers)
        #: the project's decisions so far, per word sequence and per entity type: [private, public]
        self.word_stats: dict[Seq, list[int]] = {}
        self.type_stats: dict[str, list[int]] = {}

    # --- rules ---------------------------------------------------------------------------------
    def set_rule(self, kind: RuleType, condition: Seq | str, confidence: float, lookup: bool = False) -> None:
        """Create or update a rule (as the app's upsert); lookup rules never change type rules."""
        key = (f"{kind.value}{'-lookup' if lookup else ''}", condition)
        old = self.rules.get(key)
        if old is not None and old.confidence == confidence:
            return
        rid = old.id if old is not None else len(self.rules) + 1
        self.rules[key] = Rule(rid, kind, condition, confidence=confidence)
        self._ruleset = None

    @property
    def ruleset(self) -> RuleSet:
        if self._ruleset is None:
            self._ruleset = RuleSet(self.rules.values())
        return self._ruleset

    def add_ne_types(self, doc: Document) -> None:
        """New entity types become NE_TYPE rules: suspicious, or private for ``auto`` types."""
        for t in sorted({e.type for e in doc.entities}):
            if ("NE_TYPE", t) not in self.rules:
                auto = "auto" in self.levers and t in AUTO_PRIVATE_TYPES
                self.set_rule(RuleType.NE_TYPE, t, -1.0 if auto else 0.0)

    # --- one document --------------------------------------------------------------------------
    def run_doc(self, d: _Doc, result: SessionResult) -> None:
        self.add_ne_types(d.doc)
        n = len(d.doc.tokens)
        d.seen = bytearray(n)
        sentences = [(s.first_token, s.end_token) for s in d.doc.sentences]
        for _ in range(10 * n + 10):
            anns = annotate(d.doc, self.ruleset, d.decisions.values())
            suspicious = [a for a in anns if final_decision(a) is Decision.SUSPICIOUS]
            if "uncertain" in self.levers and suspicious:
                least_sure = max(suspicious, key=lambda a: (
                    uncertainty(self.evidence(d, (a.first_token, a.end_token), a.types, a.category)),
                    -a.first_token, a.end_token))
                anchor: Span | None = (least_sure.first_token, least_sure.end_token)
            else:
                anchor = first_anchor((a.first_token, a.end_token) for a in suspicious)
            if anchor is None:
                break
            first, end = plan_window(sentences, anchor, self.window_size, (0, n))
            self.work_window(d, first, end, result)
        else:  # pragma: no cover - a bug guard
            raise RuntimeError(f"document {d.corpus.id}: windows do not converge")
        pos = 0
        while pos < n:  # the review pass over text no window showed
            if d.seen[pos]:
                pos += 1
                continue
            first, end = plan_window(sentences, (pos, pos + 1), self.window_size, (0, n), centred=False)
            self.work_window(d, first, end, result)
            result.review_windows += 1
            pos = max(pos + 1, end)
        mask = self._mask(d)
        for g_first, g_end in d.gold:  # late fixes: something seen before was undone by a later rule
            if not self._covered(d, mask, g_first, g_end):
                first, end = plan_window(sentences, (g_first, g_end), self.window_size, (0, n))
                self.work_window(d, first, end, result)
                result.late_fixes += 1
                mask = self._mask(d)
        mask = self._mask(d)
        result.covered += sum(1 for g in gold_spans(d.corpus) if is_covered(d.corpus.text, mask, g.start, g.end))

    def _mask(self, d: _Doc) -> bytearray:
        mask = bytearray(len(d.doc.text))
        for r in decided_regions(d.doc, annotate(d.doc, self.ruleset, d.decisions.values())):
            mask[r.start:r.end] = b"\x01" * (r.end - r.start)
        return mask

    @staticmethod
    def _covered(d: _Doc, mask: bytearray, first: int, end: int) -> bool:
        toks = d.doc.tokens
        return is_covered(d.doc.text, mask, toks[first].start, toks[end - 1].end)

    def view(self, d: _Doc, first: int, end: int) -> WindowView:
        """What the window shows: its tokens, its spans with decisions, its gold (clipped to it)."""
        sub = _window_doc(d.doc, first, end)
        decisions = [TokenDecision(td.first_token - first, td.end_token - first, td.decision)
                     for (a, b), td in d.decisions.items() if first <= a and b <= end]
        shown = []
        for a in annotate(sub, self.ruleset, decisions):
            span = (a.first_token + first, a.end_token + first)
            mentions = 0
            if "entity" in self.levers and final_decision(a) is Decision.SUSPICIOUS:
                key = self.entities.at(d.index, span)
                mentions = len(self.entities.mentions[key]) if key is not None else 0
            suggestion = None
            if "accept" in self.levers and final_decision(a) is Decision.SUSPICIOUS:
                suggestion = self.suggestion(d, span, a.types, a.category)
            shown.append(Shown(span[0], span[1], final_decision(a).value, mentions, a.types, suggestion))
        gold = tuple((max(a, first), min(b, end)) for a, b in d.gold if a < end and first < b)
        return WindowView(first, end, tuple(d.texts[first:end]), tuple(shown), gold)

    def suggestion(self, d: _Doc, span: Span, types: Sequence[str], category: Category) -> bool:
        """As :func:`psan.store.suggestions.add_suggestions`: the app counts private word decisions only."""
        return suggest_private(self.evidence(d, span, types, category))

    def evidence(self, d: _Doc, span: Span, types: Sequence[str], category: Category) -> Evidence:
        words = self.word_stats.get(tuple(d.texts[span[0]:span[1]]), (0, 0))
        by_type = [sum(self.type_stats.get(t, (0, 0))[i] for t in types) for i in (0, 1)]
        return Evidence(words[0], 0, by_type[0], by_type[1], None, category)

    def _count(self, d: _Doc, span: Span, private: bool) -> None:
        """Remember a decision in the project's statistics (the suggestions' evidence)."""
        self.word_stats.setdefault(tuple(d.texts[span[0]:span[1]]), [0, 0])[0 if private else 1] += 1
        for t in {e.type for e in d.doc.entities if (e.first_token, e.end_token) == span}:
            stats = self.type_stats.setdefault(t, [0, 0])
            stats[0 if private else 1] += 1
            learned = learned_type_confidence(*stats) if "learn_types" in self.levers else None
            rule = self.rules.get(("NE_TYPE", t))
            if learned is not None and rule is not None and rule.confidence == 0.0:  # as learn_type_rules
                self.set_rule(RuleType.NE_TYPE, t, learned)

    def work_window(self, d: _Doc, first: int, end: int, result: SessionResult) -> None:
        """Show one window to the person until it says it is done with it."""
        d.seen[first:end] = b"\x01" * (end - first)
        result.windows += 1
        view = self.view(d, first, end)
        result.keystrokes += self.annotator.enter(view)
        for _ in range(10 * (end - first) + 10):
            action = self.annotator.next_action(view)
            if action is None:
                return
            self.apply(d, action, result)
            view = self.view(d, first, end)
        raise RuntimeError(f"window [{first}, {end}) of {d.corpus.id} does not converge")  # pragma: no cover

    def apply(self, d: _Doc, action: Action, result: SessionResult) -> None:
        """Do what the app does for the decision (see :mod:`psan.store.decisions`)."""
        result.keystrokes += action.keys
        if action.kind == "accept":
            result.by_accept += 1
            for s in self.view(d, action.first, action.end).spans:
                if s.decision == "SUSPICIOUS":
                    words = tuple(d.texts[s.first:s.end])
                    if s.suggestion and self.word_stats.get(words, (0, 0))[0]:
                        # private again (as psan.annotate.api.api_accept): a word-type rule
                        self.set_rule(RuleType.WORD_TYPE, words, -1.0)
                    self._decide(d, (s.first, s.end), bool(s.suggestion))
            return
        if action.kind != "hand":
            types = {e.type for e in d.doc.entities if (e.first_token, e.end_token) == (action.first, action.end)}
            for t in sorted(types) or ["-"]:
                row = result.by_type.setdefault(t, [0, 0])
                row[0] += 1
                row[1] += int(action.private)
        words = tuple(d.texts[action.first:action.end])
        spans = [(action.first, action.end)]
        if action.kind == "entity":  # as psan.store.entity_decisions.decide_entity
            key = self.entities.at(d.index, spans[0])
            if key is None:  # pragma: no cover - the annotator takes only offered entities
                raise RuntimeError("entity decision without an entity")
            mentions = self.entities.mentions[key]
            for words in dict.fromkeys(m[3] for m in mentions):  # each mention text, in every document
                self.set_rule(RuleType.WORD_TYPE, words, -1.0 if action.private else 1.0)
            spans = [(first, end) for i, first, end, _ in mentions if i == d.index]
            result.by_entity += 1
        elif action.kind == "word_type":
            self.set_rule(RuleType.WORD_TYPE, words, -1.0 if action.private else 1.0)
            result.by_word_type += 1
        elif action.kind == "ne_type":
            for t in {e.type for e in d.doc.entities if (e.first_token, e.end_token) == spans[0]}:
                self.set_rule(RuleType.NE_TYPE, t, 1.0)
            result.by_ne_type += 1
        elif action.kind == "hand":
            result.by_hand += 1
        else:
            result.by_token += 1
        for span in spans:
            self._decide(d, span, action.private)

    def _decide(self, d: _Doc, span: Span, private: bool) -> None:
        """A token decision (what every scope also records) and, if private, its lookup rule."""
        d.decisions[span] = TokenDecision(span[0], span[1], Decision.PRIVATE if private else Decision.PUBLIC)
        self._count(d, span, private)
        if private:  # the lookup rule: the same words become suspicious elsewhere
            self.set_rule(RuleType.WORD_TYPE, tuple(d.texts[span[0]:span[1]]), 0.0, lookup=True)


def _window_doc(doc: Document, first: int, end: int) -> Document:
    """The window as a document of its own (tokens renumbered from 0), for the rules engine."""
    tokens = [Token(i - first, t.start, t.end) for i, t in enumerate(doc.tokens[first:end], start=first)]
    sentences = [Sentence(max(s.first_token, first) - first, min(s.end_token, end) - first)
                 for s in doc.sentences if s.first_token < end and first < s.end_token]
    entities = [Entity(e.first_token - first, e.end_token - first, e.type, e.category, e.source, e.score)
                for e in doc.entities if first <= e.first_token and e.end_token <= end]
    return Document(doc.text, tokens, sentences, entities, doc.language)


def gold_token_ranges(corpus_doc: CorpusDoc, doc: Document) -> list[Span]:
    out = []
    for g in gold_spans(corpus_doc):
        rng = align(doc.tokens, g.start, g.end)
        if rng is None:
            raise ValueError(f"gold span {g.start}-{g.end} of {corpus_doc.id} covers no token")
        out.append(rng)
    return sorted(set(out))


def run_session(corpus_name: str, workflow: str, corpus: Sequence[CorpusDoc], docs: Sequence[Document],
                levers: Iterable[str] | None = None) -> SessionResult:
    """Simulate one annotator on the whole corpus (documents in corpus order); asserts recall 1.0."""
    if workflow not in WORKFLOWS:
        raise ValueError(f"unknown workflow {workflow!r}; known: {', '.join(WORKFLOWS)}")
    chosen = WORKFLOWS[workflow][1] if levers is None else frozenset(levers)
    project = Project(chosen, ProjectEntities(docs) if "entity" in chosen else None)
    result = SessionResult(corpus_name, workflow, sorted(chosen))
    t0 = time.perf_counter()
    for i, (c, doc) in enumerate(zip(corpus, docs, strict=True)):
        d = _Doc(doc, c, [doc.text[t.start:t.end] for t in doc.tokens], gold_token_ranges(c, doc), index=i)
        project.run_doc(d, result)
        result.docs += 1
        result.gold += len(gold_spans(c))
        result.tokens += len(tokenize(c.text, c.lang)[0])
    result.seconds = round(time.perf_counter() - t0, 2)
    if result.covered != result.gold:
        raise AssertionError(f"{corpus_name}/{workflow}: final recall {result.covered}/{result.gold} != 1.0")
    return result
