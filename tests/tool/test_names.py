"""One name per idea in psan.tool: the renamed names work, the older spellings are still read."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from psan.tool.decisions.voting import PrivateRegion  # noqa: E402
from psan.tool.detection.classifier.model import TokenClassifier  # noqa: E402
from psan.tool.detection.classifier.recognizer import ClassifierRecognizer, classifier_factory  # noqa: E402
from psan.tool.detection.registry import ComponentError  # noqa: E402
from psan.tool.surrogates import SurrogateReplacer, pseudonymize_document  # noqa: E402
from psan.tool.surrogates.identity import document_entities  # noqa: E402
from psan.tool.text.document import Category  # noqa: E402


def _empty_classifier() -> TokenClassifier:
    return TokenClassifier("cs", ["O"], np.zeros(0, np.int32), np.zeros((0, 1), np.float32), np.zeros(1, np.float32))


def test_classifier_entry_takes_a_loaded_classifier_under_its_own_key():
    """``model`` names a model file/package in every entry; a loaded classifier is ``classifier``."""
    clf = _empty_classifier()
    made = classifier_factory({"kind": "classifier", "classifier": clf}, "cs")
    assert isinstance(made, ClassifierRecognizer) and made.model is clf
    older = classifier_factory({"kind": "classifier", "model": clf}, "cs")  # the older spelling still works
    assert older.model is clf
    with pytest.raises(ComponentError, match="'classifier' of a classifier entry must be a TokenClassifier"):
        classifier_factory({"kind": "classifier", "classifier": "model.bin"}, "cs")
    with pytest.raises(ComponentError, match="needs 'model_path', 'model_bytes' or 'classifier'"):
        classifier_factory({"kind": "classifier"}, "cs")


TEXT = "Jan Novák met Petr Svoboda. Novák left."


def _regions() -> list[PrivateRegion]:
    out = []
    for name in ("Jan Novák", "Petr Svoboda"):
        i = TEXT.index(name)
        out.append(PrivateRegion(i, i + len(name), Category.PERSON, None, "PERSON"))
    i = TEXT.rindex("Novák")
    out.append(PrivateRegion(i, i + 5, Category.PERSON, None, "PERSON"))
    return out


def test_entity_keys_override_linking_under_either_name():
    """The entity key (span → entity) is ``entity_keys``; ``keys`` stays readable for older callers."""
    regs = _regions()
    split = {(regs[2].start, regs[2].end): "manual:other"}
    linked = document_entities(TEXT, regs, "cs")
    assert linked.entity_keys[(regs[0].start, regs[0].end)] == linked.entity_keys[(regs[2].start, regs[2].end)]
    assert linked.keys is linked.entity_keys
    apart = document_entities(TEXT, regs, "cs", entity_keys=split)
    assert apart.entity_keys[(regs[2].start, regs[2].end)] == "manual:other"

    new, _ = pseudonymize_document(TEXT, regs, "cs", seed=3, entity_keys=split)
    old, _ = pseudonymize_document(TEXT, regs, "cs", seed=3, keys=split)
    assert new.text == old.text
    replacer = SurrogateReplacer(None, "cs", 3)
    replacer.observe(TEXT, regs, entity_keys=split)
    assert replacer._current is not None and replacer._current.entity_keys == apart.entity_keys
