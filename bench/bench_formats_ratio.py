"""Benchmark: a 200-page DOCX ready to annotate against its plain text.

Run: ``.venv/bin/python bench/bench_formats_ratio.py [--pages 200] [--lang cs] [--repeats 3] [--target 1.5]``

Why: an office file must not make a document noticeably slower to get ready than its text.  "Ready to
annotate" is what the upload and the worker do: read the file into psan's text (:mod:`psan.tool.formats.files`)
and recognize that text with the language's default pipeline.  Both sides run in this process on the same
text, after one warm-up: **docx** = ``formats.read`` + ``pipeline.process``; **text** = ``pipeline.process``
alone.  The DOCX (made with python-docx, not timed) has ~500 words a page with a bold first name and a plain
surname in every paragraph, a header, a footer and a 5×3 table every 10 pages.  The minimum of ``--repeats``
runs of each is used.  Prints the ratio docx/text, the reading and the writing-back time, and PASS/FAIL
against ``--target``; exit status 1 on FAIL.  JSON in ``bench/out/formats_ratio.json``.
"""
from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, write_json  # noqa: E402

FIRST = ("Jan", "Petr", "Marie", "Eva", "Tomáš", "Jana", "Pavel", "Lucie")
LAST = ("Novák", "Svoboda", "Dvořák", "Černá", "Procházka", "Kučerová", "Veselý", "Horák")
WORDS = ("soud", "rozhodl", "ve", "věci", "žalobce", "proti", "žalované", "o", "zaplacení", "částky", "podle",
         "smlouvy", "ze", "dne", "a", "uložil", "povinnost", "nahradit", "náklady", "řízení", "do", "tří", "dnů")


def make_docx(pages: int, seed: int = 7) -> bytes:
    import docx
    rng = random.Random(seed)
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "Spis 12 C 345/2020"
    d.sections[0].footer.paragraphs[0].text = "Vyřizuje Jana Horáková"
    for page in range(pages):
        for _ in range(10):  # ~50 words a paragraph, ~500 a page
            p = d.add_paragraph(" ".join(rng.choice(WORDS) for _ in range(22)).capitalize() + ", ")
            p.add_run(rng.choice(FIRST)).bold = True
            p.add_run(f" {rng.choice(LAST)} " + " ".join(rng.choice(WORDS) for _ in range(25)) + ".")
        if page % 10 == 0:
            table = d.add_table(rows=5, cols=3)
            for row in table.rows:
                for cell in row.cells:
                    cell.text = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        d.add_page_break()
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--lang", default="cs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target", type=float, default=1.5)
    args = parser.parse_args()

    from psan.tool.decisions.regions import entity_regions
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline
    from psan.tool.formats import files as formats
    from psan.tool.release.output import tag

    data = make_docx(args.pages)
    text = formats.read(data, "bench.docx").text
    pipeline = Pipeline(default_config(args.lang), language=args.lang)
    pipeline.process(text[:20000])  # warm-up: lazy loading of lists and models

    docx_times, text_times, read_times = [], [], []
    doc = None
    for _ in range(args.repeats):
        start = time.perf_counter()
        doc = pipeline.process(text)
        text_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        opened = formats.read(data, "bench.docx")
        read_times.append(time.perf_counter() - start)
        pipeline.process(opened.text)
        docx_times.append(time.perf_counter() - start)
    out = tag(text, entity_regions(doc), language=args.lang)
    start = time.perf_counter()
    written = formats.write(data, "bench.docx", out.standoff, expected_text=text)
    write_time = time.perf_counter() - start

    ratio = min(docx_times) / min(text_times)
    ok = ratio <= args.target
    result = {"pages": args.pages, "docx_bytes": len(data), "characters": len(text), "tokens": len(doc.tokens),
              "entities": len(doc.entities), "text_seconds": min(text_times), "docx_seconds": min(docx_times),
              "read_seconds": min(read_times), "write_back_seconds": write_time, "output_bytes": len(written),
              "ratio": ratio, "target": args.target, "pass": ok, "machine": machine()}
    path = write_json("formats_ratio", result)
    print(f"{args.pages}-page DOCX ({len(data) / 2**20:.1f} MB, {len(text):,} characters, {len(doc.tokens):,} tokens, "
          f"{len(doc.entities):,} entities), language {args.lang}")
    print(f"text: {min(text_times):.2f} s   docx (read + recognize): {min(docx_times):.2f} s   "
          f"of which reading the DOCX: {min(read_times):.2f} s   writing the tagged DOCX back: {write_time:.2f} s")
    print(f"ratio docx/text: {ratio:.3f} (target <= {args.target}) {'PASS' if ok else 'FAIL'}   -> {path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
