"""The Swedish pipeline finds the countries of three independent lists above the hidden recall floor (0.92).

Why lists, not the shared sv-dev: it holds 23 mentions in all, so a floor on it says nothing; every country's
name in Faker's, CLDR's and ISO 3166's lists, in three sentence frames (a plain mention, a genitive, a
sentence start), each sentence a document of its own, is what a hidden Swedish corpus names.
"""
from __future__ import annotations

from pathlib import Path

from ner_eval.country_recall import measure

#: the recall of hidden Swedish mentions the issue asks for
SWEDISH_FLOOR = 0.92


def test_swedish_country_names_are_found_above_the_floor_in_every_frame(shared_dir: Path):
    models = shared_dir / "models" / "nametag"
    result = measure("sv", str(models) if models.is_dir() else None)
    assert result["names"] > 250 and result["mentions"] == 3 * result["names"]
    assert result["recall"] >= SWEDISH_FLOOR, result
    assert min(result["recall_per_frame"]) >= SWEDISH_FLOOR, result
    assert not {"Peru", "Storbritannien"} & set(result["missed_names"])  # the examples
