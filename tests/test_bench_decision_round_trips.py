"""The decision round-trip benchmark runs against a real database and still meets issue 41's counts.

Why a test of a benchmark: it is the only check of "a decision in at most 8 round trips and one commit", and
it broke once without anyone noticing (a helper it imports changed its signature).
"""
from __future__ import annotations

import os
import subprocess  # nosec B404 - runs this repository's own benchmark script
import sys
from pathlib import Path

from tests import services

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_decision_round_trips.py"


def test_decision_round_trips_bench_runs_and_passes_on_a_small_document(redis_url):
    with services.postgres_server() as server:
        env = {**os.environ, "PSAN_BENCH_DATABASE_URL": server, "PSAN_BENCH_REDIS_URL": redis_url}
        done = subprocess.run([sys.executable, str(BENCH), "--tokens", "3000", "--decisions", "8", "--warmup", "2"],
                              capture_output=True, text=True, env=env, timeout=300, check=False)  # nosec B603
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "round trips per decision" in done.stdout and done.stdout.rstrip().endswith("PASS")
