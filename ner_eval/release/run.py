"""``python -m ner_eval release``: a simulated annotator releases a corpus through the real app.

Steps (all on a throw-away instance, :mod:`ner_eval.release.instance`):

1. accounts (an admin, an annotator) and a project with the workflow's pipeline
   (``thesis``: the language's NER alone, as the 2021 app; ``psan``: psan's default pipeline);
2. the corpus uploaded as one ZIP through the upload form; every document pre-annotated by the
   worker's task functions (``psan.pre_process``), the queue drained in this process;
3. the annotator works window by window through ``/annotate/api/*`` (:mod:`ner_eval.release.person`);
   between windows the background work the app queued runs (re-annotation, model retraining);
4. the *review pass*: text no window showed is opened by the admin (``/annotate/api/open``) and
   read by the same person, who marks missed gold spans by hand; both workflows pay for it alike.
   Steps 3–4 repeat until no window is left and every token was shown;
5. a QA sample of 200 released candidate tokens is drawn and reviewed (ok / miss by the gold)
   through the release page;
6. the project ZIP (pseudonymize mode) and the key are downloaded and measured
   (:mod:`ner_eval.release.measure`).

Time model (ner_eval/README.md): 0.25 s per window token read, 1 s per judgment, 4 s per span
marked by hand (instead of 1), 2 s per label.
"""
from __future__ import annotations

import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ner_eval.corpus import CorpusDoc, corpus_name, gold_spans, read_jsonl
from ner_eval.pipelines import PIPELINES, SIMULATION_NER
from ner_eval.release.attribution import attribute
from ner_eval.release.client import Admin, Annotator, AppError
from ner_eval.release.floor import ReadingFloor, reading_floor
from ner_eval.release.instance import Instance, throwaway_instance
from ner_eval.release.measure import measure_release
from ner_eval.release.person import NAME_CATEGORIES, WORKFLOWS, Action, Person, Shown, View
from ner_eval.seen import seen_documents, warning
from psan.tool.detection.merge import align
from psan.tool.text.categories import category_of

#: seconds of the time model (see the module docstring)
SECONDS_PER_TOKEN_READ = 0.25
SECONDS_PER_JUDGMENT = 1.0
SECONDS_PER_HAND_SPAN = 4.0
SECONDS_PER_LABEL = 2.0
WINDOW_SIZE = 300
QA_SAMPLE = 200
ANNOTATORS = ("perfect", "noisy")
REVIEWS = ("full", "risk")
THESIS_POLICIES = ("cautious", "eager")
PASSWORD = secrets.token_urlsafe(16)


@dataclass
class Work:
    """What the person did (the inputs of the time model)."""

    windows: int = 0
    review_windows: int = 0
    #: windows of the QA sample of unread sentences (review by risk)
    qa_windows: int = 0
    tokens_read: int = 0
    keystrokes: int = 0
    by_token: int = 0
    by_word_type: int = 0
    by_ne_type: int = 0
    by_entity: int = 0
    by_hand: int = 0
    accepts: int = 0
    accepted_spans: int = 0
    labels: int = 0
    #: offered public rules confirmed / dismissed (a judgment each), and the tokens the offers showed (read)
    offers_confirmed: int = 0
    offers_dismissed: int = 0
    offer_tokens_read: int = 0
    offer_forms: list[str] = field(default_factory=list)
    stuck_windows: int = 0
    requests: int = 0
    #: tokens read by what showed them (``span review``, ``reading: <the app's reason>``, ``qa sample``, ``unseen``,
    #: ``public offers``) and the spans marked by hand there: where the reading time goes and what it found
    read_by_kind: dict[str, int] = field(default_factory=dict)
    hand_by_kind: dict[str, int] = field(default_factory=dict)
    #: judgments (:attr:`judgments`) made in the windows of each kind: where the judgments go
    judgments_by_kind: dict[str, int] = field(default_factory=dict)
    #: spans settled per entity type shown on them (first type; "-" for none), and how many were private
    settled_by_type: dict[str, list[int]] = field(default_factory=dict)
    #: every span settled, in order: [window, document id, kind of the action, first NE type ("-": none), private,
    #: first token, end token]
    trace: list[list[Any]] = field(default_factory=list)
    #: every window shown, in order: [document id, first token, end token, tokens already shown before]
    shown: list[list[int]] = field(default_factory=list)
    #: decisions the app did not take as the person meant them (first few: kind, span, decision after)
    stuck: list[dict[str, Any]] = field(default_factory=list)

    @property
    def judgments(self) -> int:
        """Spans a person settled: each decision and rule once, each span settled by ``a`` once."""
        return self.by_token + self.by_word_type + self.by_ne_type + self.by_entity + self.by_hand + \
            self.accepted_spans + self.offers_confirmed + self.offers_dismissed

    @property
    def seconds(self) -> float:
        return (SECONDS_PER_TOKEN_READ * self.tokens_read
                + SECONDS_PER_JUDGMENT * (self.judgments - self.by_hand)
                + SECONDS_PER_HAND_SPAN * self.by_hand + SECONDS_PER_LABEL * self.labels)

    def count(self, action: Action) -> None:
        self.keystrokes += action.keys
        if action.kind == "accept":
            self.accepts += 1
            self.accepted_spans += action.settles
        else:
            name = {"token": "by_token", "word_type": "by_word_type", "ne_type": "by_ne_type",
                    "entity": "by_entity", "hand": "by_hand"}[action.kind]
            setattr(self, name, getattr(self, name) + 1)


@dataclass
class Project:
    """The app-side state the driver (not the person) knows: ids, gold as token ranges, tokens shown."""

    project_id: int
    doc_ids: dict[str, int]
    gold: dict[int, list[tuple[int, int]]]
    #: the gold token ranges that are a name, an ID or a contact (:data:`ner_eval.release.person.NAME_CATEGORIES`)
    names: dict[int, list[tuple[int, int]]]
    tokens: dict[int, list[tuple[int, int]]]
    seen: dict[int, bytearray] = field(default_factory=dict)


def pipeline_config(workflow: str, lang: str, models: Path | None) -> dict[str, Any]:
    """``thesis``: the language's NER alone (the 2021 app); ``psan``: psan's default pipeline."""
    name = SIMULATION_NER.get(lang, "spacy-en") if workflow == "thesis" else "default"
    make = PIPELINES[name].make
    assert make is not None  # nosec B101 - both are psan pipelines
    return make(lang, models)


def _setup(instance: Instance, workflow: str, lang: str, models: Path | None,
           choose: bool = False, review: str = "full") -> tuple[int, str, str, int]:
    """An admin, an annotator and the project; returns (project id, admin e-mail, annotator e-mail, annotator id).

    ``choose``: annotators may choose the document (a seeded order picks it, :meth:`Session._seed_order`).
    """
    from psan.identity import accounts
    from psan.runtime import db
    from psan.store.admin import projects as store_projects
    admin, annotator = "admin@release.example", "annotator@release.example"
    with instance.app.app_context(), db.transaction() as conn:
        accounts.create(admin, "admin", accounts.Role.ADMIN, PASSWORD, WINDOW_SIZE, conn=conn)
        person = accounts.create(annotator, "annotator", accounts.Role.USER, PASSWORD, WINDOW_SIZE, conn=conn)
        defaults = store_projects.get_project(store_projects.default_project_id(conn), conn)
        project_id = store_projects.save_project({
            "name": f"release {workflow}", "language": lang, "pipeline": pipeline_config(workflow, lang, models),
            "public_threshold": defaults["public_threshold"], "private_threshold": defaults["private_threshold"],
            "ask_labels": False, "annotators_choose_document": choose,
            # the 2021 app made a global candidate WORD_TYPE rule of every private token decision's words
            # (ELITR/pseudonymizer, psan/tool/controller.py ``add_candidate_rule``): the thesis project's
            # lookups reach every document; psan's stay in their document unless the span is a name, an ID
            # or a contact (psan.store.annotation.decisions.lookup_document_only)
            "lookups_everywhere": workflow == "thesis", "review_mode": review}, conn=conn)
        store_projects.set_members(project_id, [person.id], conn=conn)
    return project_id, admin, annotator, person.id


def _preprocess(instance: Instance, admin: Admin, project_id: int, expected: int) -> list[dict[str, Any]]:
    """Run the queued pre-processing (and what the sweeper would queue) until every document is through."""
    from psan.celery.queue import enqueue
    for _ in range(10 * expected + 10):
        instance.drain()
        with instance.app.app_context():
            enqueue(instance.app.config)  # the sweeper's job: documents above the per-project cap
        docs = admin.documents(project_id)
        if all(d["status"] not in ("NEW", "PROCESSING", "RECOGNIZED") for d in docs) and not instance.drain():
            break
    failed = [d for d in docs if d["status"] == "FAILED"]
    if failed or len(docs) != expected:
        raise AppError(f"pre-processing: {len(failed)} of {len(docs)} documents failed "
                       f"({failed[0]['error'] if failed else 'documents missing'})")
    return docs


def _load(instance: Instance, project_id: int, corpus: Sequence[CorpusDoc], docs: list[dict[str, Any]]) -> Project:
    """Document ids, token offsets and gold token ranges (the driver's knowledge, never the person's)."""
    from psan.runtime import db
    from psan.store.corpus.documents import load_document
    by_name = {d["name"]: d["id"] for d in docs}
    doc_ids, gold, tokens, names = {}, {}, {}, {}
    with instance.app.app_context(), db.transaction() as conn:
        for c in corpus:
            doc_id = by_name[f"{c.id}.txt"]
            stored = load_document(conn, doc_id)
            if stored is None or stored.text != c.text:
                raise AppError(f"document {c.id}: the app stored a different text than the corpus has")
            doc_ids[c.id] = doc_id
            tokens[doc_id] = [(t.start, t.end) for t in stored.tokens]
            ranges, name_ranges = set(), set()
            for g in gold_spans(c):
                rng = align(stored.tokens, g.start, g.end)
                if rng is not None:
                    ranges.add(rng)
                    if category_of(g.label) in NAME_CATEGORIES:
                        name_ranges.add(rng)
            gold[doc_id] = sorted(ranges)
            names[doc_id] = sorted(name_ranges)
    return Project(project_id, doc_ids, gold, names, tokens, {d: bytearray(len(t)) for d, t in tokens.items()})


class Session:
    """The person at the app: windows, decisions, the review pass."""

    def __init__(self, instance: Instance, project: Project, person: Person, annotator: Annotator,
                 reviewer: Admin) -> None:
        self.instance, self.project, self.person = instance, project, person
        self.annotator, self.reviewer = annotator, reviewer
        self.work = Work()
        if person.workflow == "psan":
            person.entity_mentions = self._entity_mentions
            person.entity_is_mention = self._entity_is_mention
        self._client: Annotator = annotator
        self._entities: dict[tuple[int, int, int], dict[str, Any] | None] = {}
        self.log: Callable[[str], None] | None = None
        #: draws the documents in a repeatable order (:meth:`_seed_order`; ``None``: the app's own random order)
        self.order_seed: int | None = None
        self.annotator_id = 0
        #: documents in the order their first window was handed out (compare runs of one order seed)
        self.document_order: list[int] = []
        self.windows_by_document: dict[int, int] = {}
        #: the project reviews by risk: the review pass reads what the app routes to reading, a QA sample the rest
        self.by_risk = False

    def _entity(self, document_id: int, first: int, end: int) -> dict[str, Any] | None:
        """The app's entity answer for a span, asked once per span and window (the person asks it twice for a
        public ``X``: its mentions, and whether the span is the mention)."""
        key = (document_id, first, end)
        if key not in self._entities:
            self._entities[key] = self._client.entity(document_id, first, end)
        return self._entities[key]

    def _entity_mentions(self, document_id: int, first: int, end: int) -> tuple[int, str | None]:
        entity = self._entity(document_id, first, end)
        return (int(entity["mentions"]), entity.get("category")) if entity else (0, None)

    def _entity_is_mention(self, document_id: int, first: int, end: int) -> bool:
        entity = self._entity(document_id, first, end)
        return bool(entity) and (entity.get("first_token"), entity.get("end_token")) == (first, end)

    def work_window(self, client: Annotator, answer: dict[str, Any], kind: str | None = None) -> None:
        """Let the person work in the window of ``answer`` until it is done with it.

        ``kind``: what showed the window, for :attr:`Work.read_by_kind` (default: the app's next window, a span
        review when the project reviews by risk; a window the app routed to reading says so itself, with its
        reason)."""
        routing = answer.get("routing")
        kind = f"reading: {routing.get('reason')}" if routing else kind or ("span review" if self.by_risk else "window")
        hand_before, judged_before = self.work.by_hand, self.work.judgments
        try:
            self._work_window(client, answer, kind)
        finally:
            self.work.hand_by_kind[kind] = self.work.hand_by_kind.get(kind, 0) + self.work.by_hand - hand_before
            self.work.judgments_by_kind[kind] = (self.work.judgments_by_kind.get(kind, 0)
                                                 + self.work.judgments - judged_before)

    def _work_window(self, client: Annotator, answer: dict[str, Any], kind: str) -> None:
        self._client = client
        self._entities.clear()
        w = answer["window"]
        doc_id, first, end = w["document_id"], w["first_token"], w["end_token"]
        self.work.shown.append([doc_id, first, end, sum(self.project.seen[doc_id][first:end])])
        self.project.seen[doc_id][first:end] = b"\x01" * (end - first)
        self.work.windows += 1
        self.work.tokens_read += end - first
        self.work.read_by_kind[kind] = self.work.read_by_kind.get(kind, 0) + end - first
        view = View.from_api(answer, self.project.gold[doc_id], self.project.names[doc_id])
        self.work.keystrokes += self.person.enter(view)
        done: set[tuple[Any, ...]] = set()
        for _ in range(4 * (end - first) + 20):
            action = self.person.next_action(view)
            if action is None:
                return
            key: tuple[Any, ...] = (action.kind, action.first, action.end, action.private)
            if action.kind == "accept":  # accepting again is right when new spans became suspicious
                key += tuple((s.first, s.end) for s in view.spans if s.decision == "SUSPICIOUS")
            if key in done:  # the app did not take the decision as the person meant it: give up on the window
                self.work.stuck_windows += 1
                if len(self.work.stuck) < 10:
                    after = [s.decision for s in view.spans if (s.first, s.end) == (action.first, action.end)]
                    self.work.stuck.append({"kind": action.kind, "first": action.first, "end": action.end,
                                            "private": action.private, "shown_after": after,
                                            "overlapping": [(s.first, s.end, s.decision) for s in view.spans
                                                            if s.first < action.end and action.first < s.end]})
                return
            done.add(key)
            self.work.count(action)
            self._count_types(view, action)
            answer = self._send(client, doc_id, action)
            view = View.from_api(answer, self.project.gold[doc_id], self.project.names[doc_id])
        self.work.stuck_windows += 1

    def _count_types(self, view: View, action: Action) -> None:
        """Which kinds of spans the person settles (what the judgments are spent on)."""
        if action.kind == "accept":
            spans = [s for s in view.spans if s.decision == "SUSPICIOUS"]
        else:
            spans = [s for s in view.spans if (s.first, s.end) == (action.first, action.end)] \
                or [Shown(action.first, action.end, "")]
        for s in spans:
            private = self.person.verdict(view, s) if action.kind == "accept" else action.private
            row = self.work.settled_by_type.setdefault(s.ne_types[0] if s.ne_types else "-", [0, 0])
            row[0] += 1
            row[1] += int(private)
            self.work.trace.append([self.work.windows, view.document_id, action.kind,
                                    s.ne_types[0] if s.ne_types else "-", int(private), s.first, s.end])

    @staticmethod
    def _send(client: Annotator, doc_id: int, action: Action) -> dict[str, Any]:
        decision = "PRIVATE" if action.private else "PUBLIC"
        if action.kind == "accept":
            return client.accept(doc_id)
        scope = action.scope or {"hand": "token"}.get(action.kind, action.kind)
        return client.decide(doc_id, action.first, action.end, decision, scope)

    def _seed_order(self) -> None:
        """Pick the next document from ``--order-seed`` as the app draws it: one unfinished document at random.

        The app hands out a window of a random unfinished document (``random()`` in
        ``psan.store.annotation.windows``); PostgreSQL's sequence cannot be replayed reliably (the rows'
        physical order changes with every update).  So a seeded run lets the person pick the document,
        through the app's own document choice (the project lets annotators choose, as any project may):
        the app then gives the chosen document's first free window.  Each unfinished document draws a key
        from the seed, its id and how many windows it has had; the smallest key wins.  Why keys rather
        than one draw per window: a draw per window depends on everything before it, so two versions of
        the code part ways at the first document that needs one window more or less; a key depends on
        that document alone, so the other documents keep their turns.
        """
        if self.order_seed is None:
            return
        from psan.runtime import db
        from psan.store.review import annotator_home
        unfinished = [d["id"] for d in self.reviewer.documents(self.project.project_id)
                      if d["status"] == "PRE_ANNOTATED"]
        chosen = min(unfinished, key=lambda d: random.Random(  # noqa: S311  # nosec B311 - a simulation
            f"{self.order_seed}:{d}:{self.windows_by_document.get(d, 0)}").random()) if unfinished else None
        with self.instance.app.app_context(), db.transaction() as conn:
            if not annotator_home.choose(conn, self.annotator_id, False, self.project.project_id, chosen):
                raise AppError("the app refused the seeded document choice")

    def _next(self, first: bool = False) -> dict[str, Any]:
        self._seed_order()
        answer = self.annotator.window() if first else self.annotator.next_window()
        w = answer.get("window")
        if w:
            self.windows_by_document[w["document_id"]] = self.windows_by_document.get(w["document_id"], 0) + 1
            if w["document_id"] not in self.document_order:
                self.document_order.append(w["document_id"])
        return answer

    def annotate(self) -> None:
        """Windows as the app hands them out, then the review of unseen text, until both are exhausted."""
        answer = self._next(first=True)
        while True:
            while answer.get("window"):
                self.work_window(self.annotator, answer)
                if self.log is not None and self.work.windows % 50 == 0:
                    self.log(f"{self.work.windows} windows, {self.work.judgments} judgments, "
                             f"{self.instance.tasks_run} background tasks")
                self.instance.drain()  # what the worker did while the person read
                self.answer_offers()
                answer = self._next()
            if not self.review():
                break
            self.instance.drain()
            answer = self._next()
            if not answer.get("window"):
                break

    def review(self) -> int:
        """Read what is left: every stretch of text no window showed (read everything), or what the project's risk
        model routes to reading (review by risk, ``/annotate/api/read``); returns how many windows."""
        if self.by_risk:
            return self._read_routed()
        return self._read_unseen()

    def _read_unseen(self) -> int:
        """Read every stretch of text no window showed; returns how many windows."""
        opened = 0
        for doc_id, seen in self.project.seen.items():
            pos = 0
            while pos < len(seen):
                if seen[pos]:
                    pos += 1
                    continue
                answer = self.reviewer.open_at(doc_id, pos, WINDOW_SIZE)
                self.work_window(self.reviewer, answer, "unseen")
                self.work.review_windows += 1
                opened += 1
                self.instance.drain()
                pos = max(pos + 1, answer["window"]["end_token"])
        return opened


    def _read_routed(self) -> int:
        opened = 0
        while True:
            answer = self.reviewer.read()
            if not answer.get("window"):
                return opened
            self.work_window(self.reviewer, answer)
            self.work.review_windows += 1
            opened += 1
            self.instance.drain()
            self.answer_offers()

    def answer_offers(self) -> None:
        """psan: the admin (the reviewer) looks at the offered public rules after a window and answers each (one
        judgment; offers show words of every document, so annotators do not see them).

        Charged as read: each offer's words and the context of every mention it shows; keys: one to reach the
        panel, one per answer and one move between offers (``psan/static/public_offers.js``).
        """
        if self.person.workflow != "psan":
            return
        offers = self.reviewer.public_offers(self.project.project_id)
        if not offers:
            return
        self.work.keystrokes += 1
        confirmed = False
        for i, offer in enumerate(offers):
            shown = len(offer["tokens"]) + sum(m["context_end"] - m["context_first"] for m in offer["mentions"])
            self.work.tokens_read += shown
            self.work.offer_tokens_read += shown
            self.work.read_by_kind["public offers"] = self.work.read_by_kind.get("public offers", 0) + shown
            mentions = [(m["document_id"], m["first_token"], m["end_token"]) for m in offer["mentions"]]
            confirm = self.person.answer_offer(offer["form"], mentions, lambda d: self.project.gold[d])
            try:
                self.reviewer.answer_offer(self.project.project_id, offer["form"], confirm)
            except AppError:  # answered meanwhile or no longer offered: nothing decided
                continue
            self.work.keystrokes += 1 + (i > 0)
            if confirm:
                self.work.offers_confirmed += 1
                self.work.offer_forms.append(offer["form"])
                confirmed = True
            else:
                self.work.offers_dismissed += 1
        if confirmed:
            self.instance.drain()  # the project's re-annotation with the new rule

    def certify(self, rounds: int = 10) -> list[dict[str, Any]]:
        """Review samples of the unread sentences until the release report's bound allows the release.

        The reviewer reads each sampled sentence in a window of its own (charged as reading), marks what nobody
        marked (the person's hand marks) and reports how many it marked; the sentences read and their misses
        teach the project's risk model, so before the next sample the text it now routes to reading is read.
        When ``rounds`` samples have not brought the bound under the target, the project does what a team would:
        it reads what nobody read (charged as reading), and the release goes out with nothing unread.
        """
        samples: list[dict[str, Any]] = []
        for _ in range(rounds):
            review = self.reviewer.release_report(self.project.project_id)["review"]
            if not review["blocked"]:
                return samples
            page, sampled = self.reviewer.review_sample(self.project.project_id)
            misses: dict[tuple[int, int], int] = {}
            kinds: Counter[str] = Counter()
            for doc_id, first, unseen in sampled:
                marked = self.work.by_hand
                # what nobody had seen of the sentence, as the review page shows it, each stretch whole (a window
                # of one token cut a long one short)
                for start, end in unseen:
                    answer = self.reviewer.open_at(doc_id, start, end - start, exact=True)
                    kinds.update(miss_kinds(View.from_api(answer, self.project.gold[doc_id])))
                    self.work_window(self.reviewer, answer, "qa sample")
                    self.work.qa_windows += 1
                    self.instance.drain()
                misses[(doc_id, first)] = self.work.by_hand - marked
            self.reviewer.review_misses(page, misses)
            samples.append({"sampled": len(sampled), "found": sum(misses.values()), "gold_unmasked": dict(kinds),
                            "expected": self.reviewer.release_report(self.project.project_id)["review"]["expected"]})
            # the misses taught the model where names hide: read what it routes now, then sample again
            samples[-1]["read_after"] = self._read_routed()
        if self.reviewer.release_report(self.project.project_id)["review"]["blocked"]:
            samples.append({"read_unseen": self._read_unseen()})
        return samples


def miss_kinds(view: View) -> Counter[str]:
    """The gold mentions of a window that no private span covers, by what shows there: a span public by the
    rules or a person (``public``), an undecided span (``suspicious``) or no span (``uncovered``)."""
    private = {i for s in view.spans if s.decision == "PRIVATE" for i in range(s.first, s.end)}
    kinds: Counter[str] = Counter()
    for first, end in view.gold:
        if all(i in private for i in range(first, end)):
            continue
        shown = {s.decision for s in view.spans if s.first < end and first < s.end and s.decision != "PRIVATE"}
        kinds["suspicious" if "SUSPICIOUS" in shown else "public" if shown else "uncovered"] += 1
    return kinds


def _qa(admin: Admin, project: Project, corpus: Sequence[CorpusDoc]) -> dict[str, Any]:
    """Draw and review a QA sample as a second reviewer who knows the gold (miss = overlaps gold)."""
    review, sampled = admin.qa_sample(project.project_id, QA_SAMPLE)
    inside: dict[int, set[int]] = {}
    for doc_id, ranges in project.gold.items():
        inside[doc_id] = {i for a, b in ranges for i in range(a, b)}
    verdicts = {(d, t): ("miss" if t in inside.get(d, ()) else "ok") for d, t in sampled}
    if verdicts:
        admin.qa_verdicts(review, verdicts)
    return {"sampled": len(sampled), "misses": sum(v == "miss" for v in verdicts.values())}


def _explain_leaks(conn, project: Project, examples: list[dict[str, Any]], sentences: Sequence[Any]) -> None:
    """Add to each leaked example what the app holds there (for finding the cause; no document text).

    Every annotation overlapping the mention: its span, the person's decision, the rule level and the
    rules voting (type, confidence, lookup); whether a window ever showed the mention; and its sentences as the app
    counts them (``sentences``: :func:`psan.store.review.risk_review.project_sentences`).
    """
    from psan.store.publish import release_audit
    from psan.store.review import risk_qa
    if not examples:
        return
    sampled = risk_qa.sampled_sentences(conn, project.project_id)
    for e in examples:
        doc_id = project.doc_ids[e["document"]]
        toks = [i for i, (a, b) in enumerate(project.tokens[doc_id]) if a < e["end"] and e["start"] < b]
        if not toks:
            continue
        first, end = toks[0], toks[-1] + 1
        e["tokens"] = [first, end]
        e["seen"] = all(project.seen[doc_id][first:end])
        # the app's view: the sentence counts as read (what the bound assumes checked), a QA sample drew it
        around = [s for s in sentences if s.document_id == doc_id and s.first_token < end and first < s.end_token]
        e["sentence"] = [[s.first_token, s.end_token, s.read, (doc_id, s.first_token) in sampled] for s in around]
        rows = release_audit.annotations_overlapping(conn, doc_id, first, end)
        e["annotations"] = [dict(r) for r in rows]


def overridden_private(trace: Sequence[Sequence[Any]], decisions: dict[tuple[int, int, int], str | None],
                       names: dict[int, str]) -> list[dict[str, Any]]:
    """The spans whose last verdict of the person was private and which the app holds decided public at the release.

    ``trace``: :attr:`Work.trace` (in order); ``decisions``: the app's token decision per span
    (:func:`psan.store.annotation.decisions.token_decisions`).  Why: a person's decision on a span beats every
    rule and every decision about another span; one that ends up public was overridden by the app (a public entity
    decision about another mention once did it), which no leak count shows unless the gold agrees.
    """
    last: dict[tuple[int, int, int], tuple[bool, str]] = {}
    for _, doc_id, kind, _, private, first, end in trace:
        last[(doc_id, first, end)] = (bool(private), kind)
    return [{"document": names.get(doc_id, str(doc_id)), "first_token": first, "end_token": end, "kind": kind}
            for (doc_id, first, end), (private, kind) in last.items()
            if private and decisions.get((doc_id, first, end)) == "PUBLIC"]


def _reading_floor(conn, project_id: int, sentences: Sequence[Any], mentions: int) -> ReadingFloor:
    """The run's :func:`ner_eval.release.floor.reading_floor`: the project's sentences as the app holds them (a hit:
    a mention marked by hand; ``sentences`` and ``mentions`` of :func:`psan.store.review.risk_review.project_sentences`)
    at the project's target."""
    from psan.store.review import risk_review
    project = risk_review.project_review(conn, project_id)
    target = float(project["qa_target"]) if project else 0.005
    return reading_floor([(s.end_token - s.first_token, s.hit) for s in sentences], mentions, target)


def _commit() -> str | None:
    """The checkout's commit (the figures name the code they measured), if this is a git checkout."""
    import subprocess  # nosec B404 - a fixed git command
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,  # noqa: S603, S607  # nosec
                              cwd=Path(__file__).resolve().parent, timeout=10, check=True).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def run_release(path: str | Path, workflow: str, annotator: str = "perfect", limit: int | None = None,
                models: Path | None = None, database_url: str | None = None, redis_url: str | None = None,
                seed: int = 0, log: Callable[[str], None] | None = None,
                order_seed: int | None = None, review: str = "full", thesis_policy: str = "cautious",
                qa_rounds: int = 10, psan_policy: str = "cautious") -> dict[str, Any]:
    """The whole measurement on one corpus file; the result as a JSON-ready dict.

    ``order_seed`` makes the app's random document order repeatable (:meth:`Session._seed_order`), so two
    versions of the code can be compared on the same order; ``None`` keeps the app's own randomness.
    ``thesis_policy`` / ``psan_policy``: when the person of that workflow decides by NE type
    (:class:`~ner_eval.release.person.Person`); psan's default keeps to the app's own learning evidence.
    """
    if workflow not in WORKFLOWS:
        raise ValueError(f"unknown workflow {workflow!r}; known: {', '.join(WORKFLOWS)}")
    if review not in REVIEWS:
        raise ValueError(f"unknown review depth {review!r}; known: {', '.join(REVIEWS)}")
    for policy in (thesis_policy, psan_policy):
        if policy not in THESIS_POLICIES:
            raise ValueError(f"unknown person policy {policy!r}; known: {', '.join(THESIS_POLICIES)}")
    review = review if workflow == "psan" else "full"  # the 2021 app read everything
    if annotator not in ANNOTATORS:
        raise ValueError(f"unknown annotator {annotator!r}; known: {', '.join(ANNOTATORS)}")
    corpus = read_jsonl(path, limit)
    if not corpus:
        raise ValueError(f"{path}: no documents")
    lang = Counter(d.lang for d in corpus).most_common(1)[0][0]
    started = time.perf_counter()
    commit = _commit()
    seen = seen_documents(pipeline_config(workflow, lang, models), [d.text for d in corpus])
    if (said := warning(seen)) is not None:
        print(said, file=sys.stderr)
    # the 2021 app had no learned model and no learned types: the thesis instance never trains one (0 = never,
    # config/default.py) and learns no type by itself; its person decides by NE type instead, at the same evidence
    config = {"MODEL_FIRST_AFTER_DECISIONS": 0, "MODEL_RETRAIN_AFTER_DECISIONS": 0,
              "LEARN_ENTITY_TYPES": False} if workflow == "thesis" else {}
    if order_seed is not None:  # the QA samples too: two runs of one code, corpus and order give the same numbers
        config["QA_SAMPLE_SEED"] = f"order-{order_seed}"
    with throwaway_instance(database_url, redis_url, **config) as instance:
        project_id, admin_email, annotator_email, annotator_id = _setup(instance, workflow, lang, models,
                                                                        choose=order_seed is not None, review=review)
        admin = Admin(instance.app, admin_email, instance.drain)
        admin.upload_zip(project_id, lang, [(f"{d.id}.txt", d.text) for d in corpus])
        t0 = time.perf_counter()
        docs = _preprocess(instance, admin, project_id, len(corpus))
        preprocess_seconds = time.perf_counter() - t0
        project = _load(instance, project_id, corpus, docs)
        from psan.runtime import db
        from psan.store.publish import release_audit
        with instance.app.app_context(), db.transaction() as conn:
            # NE_TYPE rules private before anyone decided: the project's preset (see attribution)
            preset = release_audit.private_ne_type_rule_ids(conn, project_id)
        person = Person(workflow, noisy=annotator == "noisy", seed=seed,
                        policy=thesis_policy if workflow == "thesis" else psan_policy)
        session = Session(instance, project, person, Annotator(instance.app, annotator_email), admin)
        session.log = log
        session.order_seed, session.annotator_id = order_seed, annotator_id
        session.by_risk = review == "risk"
        if log is not None:
            log(f"{len(corpus)} documents pre-annotated in {preprocess_seconds:.0f} s")
        t0 = time.perf_counter()
        session.annotate()
        samples = session.certify(qa_rounds) if session.by_risk else []
        annotate_seconds = time.perf_counter() - t0
        qa = _qa(admin, project, corpus)
        archive = admin.project_zip(project_id, "pseudonymize")
        key = admin.project_key(project_id)
        import json
        report = json.loads(archive.read("RELEASE_REPORT.json"))
        released = measure_release(corpus, project.doc_ids, archive, key, project.tokens)
        from psan.store.annotation.decisions import token_decisions
        from psan.store.review.risk_review import project_sentences
        with instance.app.app_context(), db.transaction() as conn:
            sentences, mentions = project_sentences(conn, project_id)  # read once: the leaks and the floor use them
            _explain_leaks(conn, project, released.leaked_examples, sentences)
            attribution = attribute(conn, project_id, corpus, project.doc_ids, project.tokens, archive, key, preset)
            floor = _reading_floor(conn, project_id, sentences, mentions)
            decided = token_decisions(conn, sorted({(t[1], t[5], t[6]) for t in session.work.trace if t[4]}))
        work = session.work
        work.requests = session.annotator.requests + admin.requests
    tokens = sum(len(t) for t in project.tokens.values())
    names = {doc_id: name for name, doc_id in project.doc_ids.items()}

    def per_1k(value: float) -> float:
        return round(1000 * value / tokens, 2) if tokens else 0.0

    out: dict[str, Any] = {"corpus": corpus_name(path), "workflow": workflow, "annotator": annotator,
                           "review": review, "thesis_policy": thesis_policy if workflow == "thesis" else None,
                           "psan_policy": psan_policy if workflow == "psan" else None,
                           "release_bound": report.get("review", {}).get("bound"), "review_samples": samples,
                           "commit": commit, "limit": limit, "order_seed": order_seed,
                           # documents of this corpus the pipeline's trained models were trained on (ner_eval.seen)
                           "models_seen_documents": seen,
                           "document_order": [names[d] for d in session.document_order],
                           "documents": len(corpus), "tokens": tokens, **released.to_dict(),
                           "judgments": work.judgments, "judgments_per_1k_tokens": per_1k(work.judgments),
                           "seconds_per_1k_tokens": per_1k(work.seconds),
                           "keystrokes_per_1k_tokens": per_1k(work.keystrokes), "windows": work.windows,
                           "masked_outside_by_mechanism": attribution,
                           "work": asdict(work), "qa": {**qa, "report": report.get("qa")},
                           # the same judgments with the least reading a release by risk could certify on
                           "reading_floor": {**floor.to_dict(), "seconds_per_1k_tokens": per_1k(
                               work.seconds - SECONDS_PER_TOKEN_READ * (work.tokens_read - work.offer_tokens_read
                                                                        - floor.tokens_read))},
                           "flipped_verdicts": person.flipped, "overlooked_spans": person.overlooked,
                           "background_tasks": dict(instance.tasks), "leaked_examples": released.leaked_examples,
                           # spans a person decided private that the app holds public: must be none
                           "overridden_private": overridden_private(work.trace, decided, names),
                           "run_seconds": {"preprocess": round(preprocess_seconds, 1),
                                           "annotate": round(annotate_seconds, 1),
                                           "total": round(time.perf_counter() - started, 1)}}
    return out
