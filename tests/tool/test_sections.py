"""Large documents in sections: the split, and parallel recognition equal to the serial run."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from psan.tool.detection.parallel import ParallelPipeline
from psan.tool.detection.pipeline import Pipeline
from psan.tool.detection.registry import ComponentError
from psan.tool.text.sections import merge_sections, pack, split_sections

REPO = Path(__file__).resolve().parents[2]


def test_small_text_is_one_section() -> None:
    assert split_sections("a\n\nb", min_chars=10, chars=2) == [(0, 4)]


def test_sections_cover_the_text_and_end_at_blank_lines() -> None:
    paragraphs = [f"Paragraph {i} says something.\nA second line." for i in range(200)]
    text = "\n\n".join(paragraphs)
    ranges = split_sections(text, min_chars=1000, chars=500)
    assert len(ranges) > 5
    assert ranges[0][0] == 0 and ranges[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert all(text[:end].endswith("\n\n") for _, end in ranges[:-1])
    assert all(end - start <= 500 for start, end in ranges[:-1])


def test_sections_fall_back_to_line_ends_and_never_cut_a_line() -> None:
    text = "\n".join("word " * 30 for _ in range(100))  # no blank line
    ranges = split_sections(text, min_chars=100, chars=400)
    assert len(ranges) > 1 and all(text[end - 1] == "\n" for _, end in ranges[:-1])
    one_line = "x" * 5000
    assert split_sections(one_line, min_chars=100, chars=400) == [(0, 5000)]


def test_bad_section_options_are_a_config_error() -> None:
    with pytest.raises(ComponentError, match="sections"):
        Pipeline({"language": "en", "tokenizer": "regex", "sections": {"chars": 0}})


def test_merge_shifts_ids_and_offsets() -> None:
    pipeline = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["patterns"], "propagate": False})
    text = "Mail a@example.com now.\n\nCall b@example.org later.\n\n"
    ranges = [(0, 25), (25, len(text))]
    merged = merge_sections(text, "en", [(s, pack(pipeline.recognize_section(text[s:e]))) for s, e in ranges])
    whole = pipeline.process(text)
    assert merged.tokens == whole.tokens and merged.sentences == whole.sentences
    assert merged.entities == whole.entities
    assert [merged.span_text(e.first_token, e.end_token) for e in merged.entities] == ["a@example.com",
                                                                                       "b@example.org"]


def test_merge_keeps_offset_arrays_and_the_sections_token_texts() -> None:
    from psan.tool.text.document import TokenArray, token_texts
    pipeline = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["patterns"], "propagate": False})
    text = "Mail a@example.com now.\n\nCall b@example.org later.\n\nDone."
    ranges = [(0, 25), (25, 52), (52, len(text))]
    served = merge_sections(text, "en", [(s, pipeline.recognize_section(text[s:e])) for s, e in ranges])
    packed = merge_sections(text, "en", iter([(s, pack(pipeline.recognize_section(text[s:e]))) for s, e in ranges]))
    assert isinstance(served.tokens, TokenArray) and isinstance(packed.tokens, TokenArray)
    assert served.tokens == packed.tokens and served.sentences == packed.sentences
    assert served.entities == packed.entities
    kept = served.tokens._texts  # noqa: SLF001 - the texts the section documents had are kept, not made again
    assert kept is not None and kept[0] is text and kept[1] == [text[t.start:t.end] for t in packed.tokens]
    assert token_texts(text, packed.tokens) == kept[1]


def test_binary_packs_merge_as_plain_ones() -> None:
    """A process pool's packs (offsets as an array, pickled as bytes) merge to the same document as JSON packs."""
    import pickle
    from array import array
    pipeline = Pipeline({"language": "en", "tokenizer": "regex", "recognizers": ["patterns"], "propagate": False})
    text = "Mail a@example.com now.\n\nCall b@example.org later.\n\nDone."
    ranges = [(0, 25), (25, 52), (52, len(text))]
    plain = merge_sections(text, "en", [(s, pack(pipeline.recognize_section(text[s:e]))) for s, e in ranges])
    parts = [(s, pickle.loads(pickle.dumps(pipeline.recognize_packed(text[s:e], binary=True)))) for s, e in ranges]
    assert all(isinstance(part[0], array) for _, part in parts)
    binary = merge_sections(text, "en", parts)
    assert binary.tokens == plain.tokens and binary.sentences == plain.sentences
    assert binary.entities == plain.entities and len(binary.entities) == 2


def _court_text(shared_dir: Path, chars: int) -> str:
    texts = [json.loads(line)["text"] for line in (shared_dir / "data" / "cnec-dtest.jsonl").open(encoding="utf-8")]
    return "\n\n".join(texts)[:chars]


@pytest.fixture(scope="module")
def sectioned_config(nametag_model: Callable[[str], str]) -> dict:
    return {"language": "cs", "tokenizer": "nametag",
            "ner": [{"kind": "nametag", "model": nametag_model("czech-cnec2-trivial.ner")}],
            "recognizers": ["patterns", "gazetteers", "sensitive"],
            "sections": {"min_chars": 20_000, "chars": 10_000}}


def test_parallel_equals_serial_on_a_real_multi_section_document(shared_dir: Path, sectioned_config: dict) -> None:
    text = _court_text(shared_dir, 120_000)
    pipeline = Pipeline(sectioned_config)
    assert len(pipeline.sections(text)) >= 10
    serial = pipeline.process(text)
    with ParallelPipeline(pipeline, 2) as pool:
        parallel = pool.process(text)
    assert len(serial.entities) > 500
    assert parallel.tokens == serial.tokens
    assert parallel.sentences == serial.sentences
    assert parallel.entities == serial.entities
    # propagation ran once over the whole document: it found names seeded in other sections too
    assert any(e.source == "propagation" for e in parallel.entities)
    # and the sections change nothing against the whole document in one piece here
    whole = Pipeline(dict(sectioned_config, sections=False)).process(text)
    assert whole.tokens == serial.tokens and whole.entities == serial.entities


def test_cli_jobs_gives_the_same_spans(shared_dir: Path, sectioned_config: dict, tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text(_court_text(shared_dir, 60_000), encoding="utf-8")
    (tmp_path / "small.txt").write_text("Jan Novák bydlí v Praze.\n", encoding="utf-8")
    config = tmp_path / "pipeline.json"
    config.write_text(json.dumps(sectioned_config), encoding="utf-8")

    def spans(*extra: str) -> str:
        run = subprocess.run([sys.executable, "-m", "psan.tool.cli", "spans", str(tmp_path / "big.txt"),
                              str(tmp_path / "small.txt"), "--pipeline", str(config), "-q", *extra],
                             cwd=REPO, capture_output=True, text=True, timeout=300, check=True)
        return run.stdout

    one = spans()
    assert one.count("\n") > 100
    assert spans("--jobs", "2") == one


def test_cli_rejects_bad_jobs(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "psan.tool.cli", "spans", str(tmp_path), "--jobs", "0"],
                         cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2 and "--jobs" in run.stderr and "Traceback" not in run.stderr
