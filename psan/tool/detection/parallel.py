"""Recognize documents on several cores: sections of a large document in a process pool.

Why: one large document used one core.  :meth:`psan.tool.detection.pipeline.Pipeline.sections` cuts it into
independent sections; here a :class:`concurrent.futures.ProcessPoolExecutor` (each process builds the
pipeline once) recognizes them and the parent merges them in text order and runs the document-level
steps once, so the output equals :meth:`Pipeline.process` on one core.  Small documents are sent to
the pool whole, several at a time, so a folder of small files also uses every process.

Used by ``psan-tool … --jobs N``.  Not usable inside a Celery prefork child (a daemon process cannot
start a pool); the worker runs the sections as a Celery chord instead (``psan.celery.sections``).
"""
from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Document

__all__ = ["ParallelPipeline"]

_PIPELINE: Pipeline | None = None  # the pool process's own pipeline


def _init(config: dict[str, Any], language: str) -> None:
    global _PIPELINE  # noqa: PLW0603 - one pipeline per pool process, built once
    _PIPELINE = Pipeline(config, language=language)


def _recognize(text: str) -> list:
    if _PIPELINE is None:
        raise RuntimeError("pool process without a pipeline")
    return _PIPELINE.recognize_packed(text, binary=True)


class ParallelPipeline:
    """A :class:`Pipeline` whose sections run in ``jobs`` processes; use as a context manager.

    ``pipeline`` is the parent's own instance (it only splits, merges and finishes; it is built
    anyway to report config errors before any process starts).
    """

    def __init__(self, pipeline: Pipeline, jobs: int) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.pipeline = pipeline
        self.jobs = jobs
        # fork would copy the parent's loaded models cheaply, but forking a process with threads
        # (tqdm, BLAS) can deadlock: spawn, and every process loads the models itself
        self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_init, initargs=(pipeline.to_config(), pipeline.language))

    def __enter__(self) -> ParallelPipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def warm_up(self) -> None:
        """Start every process and load its models now (benchmarks time recognition, not start-up)."""
        for fut in [self._pool.submit(_recognize, "Warm up.") for _ in range(self.jobs)]:
            fut.result()

    def _submit(self, text: str) -> tuple[str, list[tuple[int, Future[list]]]]:
        return text, [(start, self._pool.submit(_recognize, text[start:end]))
                      for start, end in self.pipeline.sections(text)]

    def _collect(self, text: str, futures: list[tuple[int, Future[list]]]) -> Document:
        # a generator: each section is merged as soon as it is back (while the pool works on the later ones)
        return self.pipeline.merge(text, ((start, fut.result()) for start, fut in futures))

    def process(self, text: str) -> Document:
        """Recognize one text; equal to ``Pipeline.process(text)``."""
        return self._collect(*self._submit(text))

    def iter_process(self, texts: Iterable[str]) -> Iterator[Document]:
        """Recognize texts in order, keeping about two sections per process queued."""
        pending: deque[tuple[str, list[tuple[int, Future[list]]]]] = deque()
        queued = 0
        for text in texts:
            item = self._submit(text)
            pending.append(item)
            queued += len(item[1])
            while pending and queued >= 2 * self.jobs:
                done = pending.popleft()
                queued -= len(done[1])
                yield self._collect(*done)
        while pending:
            yield self._collect(*pending.popleft())
