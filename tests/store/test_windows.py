"""Cutting an annotation window (psan.store.annotation.windows): the window-size limit."""
from __future__ import annotations

import random

import pytest

from psan.runtime import db
from psan.store.annotation import windows
from psan.store.annotation.windows import cut_window
from tests.documents import add_document
from tests.helpers import account_id, make_account


@pytest.mark.parametrize("centred", [True, False])
def test_cut_window_prefers_line_breaks(centred):
    line_starts = list(range(10, 1000, 10))  # lines of 10 tokens
    first, end = cut_window((500, 502), 95, (0, 1000), line_starts, centred)
    assert first <= 500 < 502 <= end and end - first <= 95
    assert first in line_starts and end in line_starts
    # without line breaks: plain token boundaries, exactly the size
    first, end = cut_window((500, 502), 95, (0, 1000), [], centred)
    assert first <= 500 and end >= 502 and end - first == 95


def test_the_claim_statement_cuts_windows_as_plan_window_does(clean_app):
    """The one-statement claim (SQL) leases exactly the window compute_window (Python) plans, lease after lease."""
    rng = random.Random(5)
    names = ["Novák", "Svoboda", "Dvořák", "Černý", "Veselý"]
    sentences = []
    for n in range(120):  # sentences of 2 to 40 words, a name in some
        words = ["slovo"] * rng.randint(1, 39)
        if rng.random() < 0.5:
            words.insert(rng.randrange(len(words)), names[n % len(names)])
        sentences.append(" ".join(words).capitalize() + ".")
    doc = add_document(clean_app, " ".join(sentences), [(name, "P") for name in names])
    for i in range(12):
        make_account(clean_app, f"a{i}@example.org")
    for i in range(12):
        me = account_id(clean_app, f"a{i}@example.org")
        size = rng.choice([15, 40, 90])
        with clean_app.app_context(), db.transaction() as conn:
            anchor = windows.find_anchor(conn, doc, me)
            if anchor is None:
                break
            planned = windows.compute_window(conn, doc, me, anchor, size)
            claimed = windows.claim_first_free(conn, doc, me, size, 900)
        assert claimed is not None and (claimed.first_token, claimed.end_token) == planned, (i, size, anchor)
        assert claimed.account_id == me and claimed.live and claimed.decisions == 0
