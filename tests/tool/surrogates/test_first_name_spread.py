"""Foreign men's first names in a Slavic genitive ("Jamesa", "Georgea", "Billa") read like -a names; their
surrogates are still drawn from the whole first-name pool, not from the handful of -a men's names (every one of
them became "Gejza")."""
from __future__ import annotations

import pytest

from psan.tool.cli.pseudonymize import pseudonymize_corpus


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PSAN_NAMETAG_MODELS", raising=False)


@pytest.mark.parametrize("seed", ["0", "3"])
def test_genitive_foreign_first_names_get_a_spread_of_surrogates(seed):
    names = ["Jamesa Bradleyho", "Georgea Busha", "Hamida Karzaia", "Billa Clintona", "Tonyho Blaira"]
    text = "Podľa " + ", podľa ".join(names) + "."
    spans = [{"start": text.index(n), "end": text.index(n) + len(n), "label": "PER"} for n in names]
    out = pseudonymize_corpus([{"id": "d", "lang": "sk", "text": text, "spans": spans}], None, "pseudonymize", seed)[0]
    firsts = [r["surrogate"].split()[0] for r in out["replacements"]]
    assert len(set(firsts)) == len(firsts), firsts
