"""Learned suggestions: a token classifier trained on gold corpora and annotators' decisions.

It flags what NER and the patterns miss (Tacita-style logistic regression over form, shape, name-list,
context and previous-class features).  The pipeline recognizer kind ``"classifier"`` is registered by
:mod:`psan.tool.detection.components`.  Modules: :mod:`.features`, :mod:`.data` (training examples, decisions),
:mod:`.model` (:class:`TokenClassifier`), :mod:`.serialize` (safe byte format),
:mod:`.recognizer` (:class:`ClassifierRecognizer`), ``python -m psan.tool.detection.classifier`` (CLI).
"""
from psan.tool.detection.classifier.data import TrainingDoc, examples_from_decisions, training_doc_from_gold
from psan.tool.detection.classifier.model import TokenClassifier, TokenPrediction
from psan.tool.detection.classifier.recognizer import ClassifierRecognizer
from psan.tool.detection.classifier.serialize import ModelFormatError

__all__ = ["ClassifierRecognizer", "ModelFormatError", "TokenClassifier", "TokenPrediction", "TrainingDoc",
           "examples_from_decisions", "training_doc_from_gold"]
