"""Writing edits back into places: kept characters stay, a replacement spreads over the runs it covered."""
from __future__ import annotations

from psan.tool.formats.files.base import Edit, edits_from_standoff, place_texts

TEXT = "Dear Jan Novák, hi"


def test_surrogate_spread_word_by_word_over_runs() -> None:
    places = [(0, 5, None), (5, 8, None), (8, 14, None), (14, 18, None)]  # "Dear " "Jan" " Novák" ", hi"
    assert place_texts(TEXT, places, [Edit(5, 14, "Petr Svoboda")]) == ["Dear ", "Petr", " Svoboda", ", hi"]


def test_tag_goes_to_the_first_run_and_the_others_are_emptied() -> None:
    places = [(0, 5, None), (5, 8, None), (8, 14, None), (14, 18, None)]
    assert place_texts(TEXT, places, [Edit(5, 14, "[PERSON]")]) == ["Dear ", "[PERSON]", "", ", hi"]


def test_name_broken_inside_a_word() -> None:
    places = [(0, 7, None), (7, 14, None), (14, 18, None)]  # "Dear Ja" | "n Novák" (a proofing mark between)
    assert place_texts(TEXT, places, [Edit(5, 14, "Petr Svoboda")]) == ["Dear Petr ", "Svoboda", ", hi"]


def test_edit_over_layout_only_writes_nothing_and_private_text_never_survives() -> None:
    text = "Jan\nNovák"
    places = [(0, 3, None), (4, 9, None)]  # the line break is layout
    assert place_texts(text, places, [Edit(3, 4, "")]) == ["Jan", "Novák"]
    assert place_texts(text, places, [Edit(0, 9, "[X]")]) == ["[X]", ""]


def test_several_edits_in_one_place() -> None:
    places = [(0, len(TEXT), None)]
    assert place_texts(TEXT, places, [Edit(5, 8, "A"), Edit(9, 14, "B")]) == ["Dear A B, hi"]


def test_remove_mode_whitespace_belongs_to_the_edit() -> None:
    standoff = [{"original_start": 5, "original_end": 14, "replacement": "", "removed_before": " ",
                 "removed_after": ""}]
    assert edits_from_standoff(standoff) == [Edit(4, 14, "")]
