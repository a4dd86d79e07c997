"""When a project's learned model may serve, and which of its spans it may propose.

Why: a model trained on a handful of decisions flagged "The", "." and whole clauses as private in
every window.  A project model must earn its place, measured on the project's own decisions:

* **Held out**: every :data:`HELD_OUT_EVERY`-th training document is held out; the model is trained
  on the others and evaluated on the held-out documents' decided tokens.
* **The measure**: token-level F1 of "private" on the held-out decided tokens (a token is gold
  private when a decided private span covers it).  The model serves only while its F1 is strictly
  above the F1 of the project's rule-based suggestions on the same tokens (the recognizers' spans
  suggested or decided private by their category and entity-type rules, without the model), and
  only after at least :data:`MIN_TRAINING_TOKENS` training tokens and :data:`MIN_HELD_OUT_TOKENS`
  held-out tokens with a private one among them.  Anything else: it does not serve, and says why.
* **What it may propose** (:func:`allowed_span`, :func:`cap_new_spans`): never a span made only of
  punctuation, stop words or digit-free function words; never longer (in tokens) than the longest
  span of its category people or rules decided private in the project; never more than
  :data:`MAX_NEW_SPANS_PER_WINDOW` new spans (spans no recognizer found) per
  :data:`WINDOW_TOKENS` tokens, the most probable ones kept; and of those, none that only re-draws the
  boundary of a recognizer's span (:func:`drop_redrawn_spans`).
* **New spans must pay for themselves** (:func:`proposes_new_spans`): once people have decided
  :data:`NEW_SPAN_EVIDENCE` of the model's new spans and fewer than :data:`NEW_SPAN_MIN_PRIVATE` of
  them are private (a one-sided 95 % bound), the model proposes no new span; its vote on the
  recognizers' spans stays.

Model spans never become rules by themselves: they are suggestions (entity type ``MODEL``, voted on
by the project's MODEL rule, confidence 0 = suspicious unless an admin changes it).
"""
from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from psan.tool.decisions.suggest import private_share_bound
from psan.tool.words.function_words import function_words

__all__ = ["HELD_OUT_EVERY", "MIN_TRAINING_TOKENS", "MIN_HELD_OUT_TOKENS", "MAX_NEW_SPANS_PER_WINDOW",
           "WINDOW_TOKENS", "NEW_SPAN_EVIDENCE", "NEW_SPAN_MIN_PRIVATE", "split_held_out", "f1", "Verdict",
           "verdict", "allowed_span", "cap_new_spans", "held_out_labels", "only_punctuation",
           "drop_redrawn_spans", "proposes_new_spans"]

HELD_OUT_EVERY = 4
MIN_TRAINING_TOKENS = 500
MIN_HELD_OUT_TOKENS = 50
MAX_NEW_SPANS_PER_WINDOW = 5
WINDOW_TOKENS = 300
#: people's decisions on the model's new spans needed before their private share may stop the proposals (the
#: fewest at which even none private is clear: the upper 95 % bound of 0 of 10 is 0.21; at 20, tab-dev's and
#: ELITR's models spent 20 judgments on 20 public proposals before they stopped) ...
NEW_SPAN_EVIDENCE = 10
#: ... and the share of them that must be private (95 % upper bound) for the proposals to go on: a proposal
#: costs a judgment (about 1 s), a name it finds spares marking it by hand (about 4 s, ner_eval's time model),
#: so proposals pay only while at least one in four is a name
NEW_SPAN_MIN_PRIVATE = 0.25

#: general English closed-class and filler words (other languages: psan.tool.words.function_words)
_ENGLISH_STOP = frozenset("""
    a an the and or but nor of to in on at by for with from as into onto about after before over under
    up down out off again further once than then there here so if also too very just only not no yes
    is am are was were be been being do does did done have has had having will would shall should can
    could may might must this that these those it its he she they we you i his her hers their theirs
    our ours your yours my mine me him them us who whom whose which what when where why how all any
    both each few more most other some such own same mr mrs ms dr
""".split())


def _stop_words(language: str) -> frozenset[str]:
    return _ENGLISH_STOP | function_words(language)


def split_held_out(docs: Sequence, every: int = HELD_OUT_EVERY) -> tuple[list, list]:
    """(training, held-out) documents: every ``every``-th one held out (none with fewer than two documents)."""
    if len(docs) < 2:
        return list(docs), []
    held = [d for i, d in enumerate(docs) if i % every == every - 1] or [docs[-1]]
    held_ids = {id(d) for d in held}
    return [d for d in docs if id(d) not in held_ids], held


def f1(gold: Sequence[bool], predicted: Sequence[bool]) -> float:
    """F1 of the positive class (0 when nothing is gold or predicted positive)."""
    tp = sum(g and p for g, p in zip(gold, predicted, strict=True))
    fp = sum(p and not g for g, p in zip(gold, predicted, strict=True))
    fn = sum(g and not p for g, p in zip(gold, predicted, strict=True))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a model serves, the figures behind it, and why (for the projects page)."""

    serves: bool
    reason: str
    training_tokens: int
    held_out_tokens: int
    model_f1: float | None = None
    baseline_f1: float | None = None

    def as_meta(self) -> dict:
        return {"serves": self.serves, "serve_reason": self.reason, "training_tokens": self.training_tokens,
                "held_out_tokens": self.held_out_tokens, "model_f1": self.model_f1, "baseline_f1": self.baseline_f1}


def verdict(training_tokens: int, gold: Sequence[bool], model: Sequence[bool] | None,
            baseline: Sequence[bool] | None) -> Verdict:
    """The serving decision (see the module docstring); ``gold``/``model``/``baseline``: held-out tokens."""
    held = len(gold)
    if training_tokens < MIN_TRAINING_TOKENS:
        return Verdict(False, f"trained on {training_tokens} decided tokens; a model serves only after "
                              f"{MIN_TRAINING_TOKENS}", training_tokens, held)
    if held < MIN_HELD_OUT_TOKENS or not any(gold) or model is None or baseline is None:
        return Verdict(False, f"{held} held-out decided tokens (at least {MIN_HELD_OUT_TOKENS} with a private one "
                              "are needed to evaluate it)", training_tokens, held)
    m, b = f1(gold, model), f1(gold, baseline)
    if m <= b:
        return Verdict(False, f"held-out F1 {m:.2f} does not beat the rule-based suggestions' {b:.2f}",
                       training_tokens, held, m, b)
    return Verdict(True, f"held-out F1 {m:.2f} beats the rule-based suggestions' {b:.2f}", training_tokens, held, m, b)


def held_out_labels(model, held: Sequence[tuple[object, Sequence[tuple[int, int]]]]
                    ) -> tuple[list[bool], list[bool], list[bool]]:
    """(gold, model, baseline) "private" of every decided token of the held-out documents.

    ``held``: pairs of a :class:`~psan.tool.detection.classifier.data.TrainingDoc` and the character spans the
    project's rule-based suggestions make private in it.  Tokens are the model's own tokenization;
    a document's ``include`` ranges (``None``: every token) say which tokens were decided.
    """
    from psan.tool.detection.classifier.features import OUTSIDE
    gold: list[bool] = []
    predicted: list[bool] = []
    baseline: list[bool] = []
    for doc, rule_spans in held:
        for p in model.predict_tokens(doc.text):
            start, end = p.token.start, p.token.end
            if doc.include is not None and not any(s < end and start < e for s, e in doc.include):
                continue
            gold.append(any(s < end and start < e for s, e, _ in doc.spans))
            predicted.append(p.label != OUTSIDE)
            baseline.append(any(s < end and start < e for s, e in rule_spans))
    return gold, predicted, baseline


def _is_punctuation(word: str) -> bool:
    return all(unicodedata.category(ch)[0] in "PSZ" for ch in word)


def only_punctuation(words: Sequence[str]) -> bool:
    """Is a span made of punctuation (and symbols) only?  Such a span says nothing about other places."""
    return all(_is_punctuation(w) for w in words)


def allowed_span(words: Sequence[str], category: str, language: str, longest: dict[str, int]) -> bool:
    """May the model propose a span of these words and category (see the module docstring)?

    ``longest``: per category, the most tokens of a span decided private in the project (a category
    nobody decided private yet: the longest of any category; nothing decided at all: no span).
    """
    if not words:
        return False
    stop = _stop_words(language)
    if all(_is_punctuation(w) or (w.casefold() in stop and not any(ch.isdigit() for ch in w)) for w in words):
        return False
    limit = longest.get(category, max(longest.values(), default=0))
    return len(words) <= limit


def cap_new_spans(spans: Iterable[tuple[int, int, float]], known: set[tuple[int, int]],
                  cap: int = MAX_NEW_SPANS_PER_WINDOW, window: int = WINDOW_TOKENS) -> list[tuple[int, int, float]]:
    """The spans kept: those on a span another recognizer found, and per ``window`` tokens at most
    ``cap`` new ones (the most probable).  Spans are ``(first_token, end_token, score)``."""
    kept: list[tuple[int, int, float]] = []
    new_by_window: dict[int, list[tuple[int, int, float]]] = {}
    for span in spans:
        if (span[0], span[1]) in known:
            kept.append(span)
        else:
            new_by_window.setdefault(span[0] // window, []).append(span)
    for group in new_by_window.values():
        kept += sorted(group, key=lambda s: (-s[2], s[0]))[:cap]
    return sorted(kept)


def proposes_new_spans(private: int, public: int) -> bool:
    """May the model still propose new spans, given people's verdicts on the new spans it proposed so far?

    Why: a model that beats the rules on the held-out tokens can still propose mostly wrong *new* spans (on
    40 tab-dev documents: 2 of 42 decided ones private), each a judgment that finds nothing; the names it
    would find are few and a person marks them by hand.  Stop only on clear evidence: at least
    :data:`NEW_SPAN_EVIDENCE` decided, and even the upper 95 % bound of their private share below
    :data:`NEW_SPAN_MIN_PRIVATE`.  The spans already decided stay; the model's vote on recognizers' spans stays.
    """
    if private + public < NEW_SPAN_EVIDENCE:
        return True
    return 1.0 - private_share_bound(public, private) >= NEW_SPAN_MIN_PRIVATE


def drop_redrawn_spans(spans: Iterable[tuple[int, int, float]], known: Iterable[tuple[int, int]]
                       ) -> list[tuple[int, int, float]]:
    """The spans without the new ones that overlap a recognizer's span (``known``) without being it.

    Why: such a span only re-draws the boundary of a span the annotator is shown anyway ("İzmir ." over
    "İzmir", "Administrative Court dismissed the applicant's case" over "Administrative Court"), so
    it costs a judgment and finds nothing (``ner_eval release`` on 40 tab-dev documents: with the model
    serving, 1,250 judgments and 52 spans marked by hand; without it, 1,034 and 54).  A proposal on
    exactly a recognizer's span stays (it is the model's vote on that span), and so does a new span
    apart from every recognizer's: that is what a model can find that the rules cannot.  Apply after
    :func:`cap_new_spans`, so that dropping a proposal never lets a less probable one in.
    """
    known_set = set(known)
    ordered = sorted(known_set)
    starts = [a for a, _ in ordered]
    longest = max((b - a for a, b in ordered), default=0)
    kept = []
    for first, end, score in spans:
        if (first, end) not in known_set:
            lo = bisect.bisect_left(starts, first - longest)
            hi = bisect.bisect_left(starts, end)
            if any(a < end and first < b for a, b in ordered[lo:hi]):
                continue
        kept.append((first, end, score))
    return kept
