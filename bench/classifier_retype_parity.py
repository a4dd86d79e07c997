"""Migration 0045 against recognition: does a classifier span retyped from its stored document get the type the
classifier gave it when the document was recognized?

Run: ``.venv/bin/python bench/classifier_retype_parity.py [--models-dir /work/models] [--docs 80]``

Why: 0045 types the spans the pre-trained classifier stored as ``MODEL`` from what the database keeps (text,
tokens, sentences, the span's first token and category), while the classifier typed its spans inside the pipeline,
before the merge split tokens, extended mentions, completed names and unified categories.  This measures how often
the two differ, on real texts through the app's own steps: the language's default pipeline with its
``classifier-<lang>.bin`` recognizes each text, :func:`psan.store.corpus.documents.save_recognized` stores it in
a throw-away database, the classifier's spans are set back to ``MODEL`` (what the code before the types stored),
the migration's own ``retype`` runs, and each span's type is compared with the one recognition stored.
Texts: Czech UD (FicTree, CAC dev: 40 sentences a document, paragraphs kept; and one document of their dev and
test parts, which the pipeline recognizes in sections), CNEC dtest (40 sentences a document), Slovak UNER dev;
``--docs`` documents of each.  Prints, per corpus, the spans compared, how many agree, the disagreements, and the
time the migration's step took.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg2  # noqa: E402
from common import DATA, REPO  # noqa: E402
from throwaway import throwaway_database  # noqa: E402

MIGRATIONS = REPO / "db" / "migrations"
CHUNK = 40


def load_migration():
    """Migration 0045's module as yoyo loads it."""
    from yoyo import read_migrations

    migration = next(m for m in read_migrations(str(MIGRATIONS)) if m.id.startswith("0045."))
    migration.load()
    return migration.module


def ud_texts(paths: list[Path], limit: int, chunk: int = CHUNK) -> list[str]:
    """Documents of ``chunk`` sentences from CoNLL-U files (``# newpar``: a blank line)."""
    docs: list[str] = []
    parts: list[str] = []
    count = 0
    lines = [line for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    for line in lines + ["# text = "] * (chunk if chunk > len(lines) else 0):
        if line.startswith("# newpar") and parts:
            parts.append("\n\n")
        elif line.startswith("# text = "):
            parts.append(line[len("# text = "):])
            count += 1
            if count >= chunk:
                docs.append(" ".join(parts).replace(" \n\n ", "\n\n").strip())
                parts, count = [], 0
                if len(docs) >= limit:
                    break
    return docs


def jsonl_texts(name: str, limit: int, chunk: int) -> list[str]:
    records = [json.loads(line)["text"] for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    return [" ".join(records[i:i + chunk]) for i in range(0, len(records), chunk)][:limit]


def corpora(limit: int) -> dict[str, tuple[str, list[str]]]:
    fictree, cac = DATA / "ud" / "cs_fictree-ud-dev.conllu", DATA / "ud" / "cs_cac-ud-dev.conllu"
    return {"ud-cs-fictree": ("cs", ud_texts([fictree], limit)),
            "ud-cs-cac": ("cs", ud_texts([cac], limit)),
            # one document of both and their test parts (over 200,000 characters): recognized in sections
            # (psan.tool.text.sections)
            "ud-cs-one-document": ("cs", ud_texts([fictree, cac, fictree.with_name("cs_fictree-ud-test.conllu"),
                                                    cac.with_name("cs_cac-ud-test.conllu")], 1, 10**6)),
            "cnec-dtest": ("cs", jsonl_texts("cnec-dtest", limit, CHUNK)),
            "sk-dev": ("sk", jsonl_texts("sk-dev", limit, 1))}


def measure(url: str, models_dir: str, limit: int) -> dict[str, dict[str, object]]:
    from psan.store.corpus.documents import save_recognized
    from psan.tool.detection.defaults import default_config
    from psan.tool.detection.pipeline import Pipeline

    migration = load_migration()
    out: dict[str, dict[str, object]] = {}
    pipelines: dict[str, Pipeline] = {}
    for name, (lang, texts) in corpora(limit).items():
        if lang not in pipelines:
            config = default_config(lang, models_dir)
            if not any(isinstance(r, dict) and r.get("kind") == "classifier" for r in config["recognizers"]):
                raise SystemExit(f"no classifier-{lang}.bin in {models_dir}")
            pipelines[lang] = Pipeline(config, lang)
        conn = psycopg2.connect(url)
        with conn, conn.cursor() as cur:
            cur.execute("TRUNCATE document RESTART IDENTITY CASCADE")
            cur.execute("SELECT id FROM project WHERE is_default")
            project = cur.fetchone()[0]
            for i, text in enumerate(texts):
                cur.execute("INSERT INTO document (project_id, name, language, text) VALUES (%s, %s, %s, %s) "
                            "RETURNING id", (project, f"{name}-{i}.txt", lang, text))
                save_recognized(conn, cur.fetchone()[0], pipelines[lang].process(text), "")
            cur.execute("CREATE TEMP TABLE recognized AS SELECT id, type FROM named_entity "
                        "WHERE source = 'classifier' AND type LIKE 'CLS\\_%'")
            cur.execute("UPDATE named_entity n SET type = 'MODEL' FROM recognized r WHERE n.id = r.id")
            started, cpu = time.perf_counter(), time.process_time()
            counts = migration.retype(conn)
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            cur.execute("SELECT r.type, n.type, d.text, t.start_char, t2.end_char FROM recognized r "
                        "JOIN named_entity n ON n.id = r.id JOIN document d ON d.id = n.document_id "
                        "JOIN token t ON t.document_id = n.document_id AND t.idx = n.first_token "
                        "JOIN token t2 ON t2.document_id = n.document_id AND t2.idx = n.end_token - 1")
            rows = cur.fetchall()
            cur.execute("SELECT count(*) FROM token")
            tokens = cur.fetchone()[0]
            conn.rollback()
        conn.close()
        differ = [(a, b, text[max(0, s - 25):s] + "[" + text[s:e] + "]") for a, b, text, s, e in rows if a != b]
        out[name] = {"documents": len(texts), "tokens": tokens, "retype_seconds": round(wall, 3),
                     "retype_cpu_seconds": round(cpu, 3),
                     "spans": len(rows), "retyped": counts["spans"],
                     "same": len(rows) - len(differ), "differ": len(differ),
                     "shapes": dict(Counter(a.rpartition("_")[2] for a, *_ in rows)),
                     "how": dict(Counter(f"{a} -> {b}" for a, b, _ in differ).most_common(8)),
                     "examples": [f"{a} -> {b}: {ctx!r}" for a, b, ctx in differ[:8]]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models-dir", default="/work/models")
    parser.add_argument("--docs", type=int, default=80)
    args = parser.parse_args()
    with throwaway_database("psan_retype_parity") as database:
        result = measure(database.url, args.models_dir, args.docs)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
