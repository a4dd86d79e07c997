"""Which of a corpus' documents the trained models of a pipeline have seen, so an evaluation says when it is optimistic.

Why: the recipe's Slovak classifier is trained on sk-dev, the file its evaluations read; on documents it has not seen
it finds fewer names (any-overlap recall 0.96 against 1.0), so a release measured there looks better than it is.
The training command records digests of its texts (:mod:`psan.tool.detection.classifier.provenance`); this module
compares them with the corpus.  Held-out models for such a corpus: ``python -m ner_eval.held_out_models``.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["seen_documents", "warning"]


def seen_documents(config: Mapping[str, Any], texts: Sequence[str]) -> list[dict[str, Any]]:
    """Per classifier of a pipeline ``config``: its file name, how many of ``texts`` it was trained on (``None``: its
    metadata does not say) and how many texts there are."""
    from psan.tool.detection.classifier.model import TokenClassifier
    from psan.tool.detection.classifier.provenance import seen_texts
    out = []
    for spec in config.get("recognizers", []):
        path = spec.get("model_path") if isinstance(spec, Mapping) and spec.get("kind") == "classifier" else None
        if not path:
            continue
        meta = TokenClassifier.load(path).meta
        out.append({"model": os.path.basename(path), "seen": seen_texts(meta, texts), "documents": len(texts)})
    return out


def warning(seen: Sequence[Mapping[str, Any]]) -> str | None:
    """A line for the person running the evaluation when a model has seen some of the documents, else ``None``."""
    hits = [s for s in seen if s.get("seen")]
    if not hits:
        return None
    said = ", ".join(f"{s['model']} was trained on {s['seen']} of its {s['documents']} documents" for s in hits)
    return (f"warning: {said}: detection, hand marks and leaks are optimistic here "
            "(held-out models: python -m ner_eval.held_out_models)")
