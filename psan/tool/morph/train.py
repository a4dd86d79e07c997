"""Training recipe of the morphological taggers and parsers (UDPipe 1) from CoNLL-U treebanks.

Why in the repository: a deployment must be able to rebuild the model from public data; the model
itself (a derived work of CC BY-SA 4.0 treebanks) is written into the models folder
(``$PSAN_NAMETAG_MODELS``), never into the repository, with its licence and training record beside it.

``--exclude-corpus X.jsonl`` leaves out every treebank sentence whose ``sent_id`` (or text) is a
document id (or text) of X, and with ``--exclude-documents`` the whole source documents of those
sentences (CAC ``a10w-s1`` → document ``a10w``), so a model can be measured on X honestly.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

#: the file a language's model is stored under, inside the models folder
MODEL_NAME = "morph-{lang}.udpipe"
#: the file of a language's dependency parser (optional, ``--parser``): a model of its own, so the tagger
#: and the parser are trained (and replaced) independently; it parses what the tagger tagged
PARSER_NAME = "parse-{lang}.udpipe"
#: tagger options: UPOS and features only (no lemma, no Czech positional XPOS: a tag set that small tags
#: fast), guesser suffix rules for unknown names
TAGGER_OPTIONS = ("models=1;use_lemma=0;provide_lemma=0;use_xpostag=0;provide_xpostag=0;"
                  "guesser_suffix_rules=8;guesser_enrich_dictionary=6;iterations=15;templates=tagger")
#: parser options (``--parser``): a small Parsito model on UPOS, features and forms (no lemmas, no XPOS),
#: no tagger of its own; its relations tell a subject from an object and an apposition from a possessor
#: where the name's form cannot
PARSER_OPTIONS = ("iterations=8;hidden_layer=100;embedding_upostag=20;embedding_feats=20;embedding_xpostag=0;"
                  "embedding_form=50;embedding_lemma=0;embedding_deprel=20;structured_interval=0")


def model_path(models_dir: str | Path, lang: str, parser: bool = False) -> Path:
    """Where the tagger (or with ``parser`` the parser) of ``lang`` lives in a models folder."""
    return Path(models_dir) / (PARSER_NAME if parser else MODEL_NAME).format(lang=lang)


def _sentences(path: Path) -> Iterator[tuple[str, str, str]]:
    """(sent_id, text, CoNLL-U block) of each sentence of a CoNLL-U file."""
    block: list[str] = []
    sid = text = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if block:
                yield sid, text, "\n".join(block) + "\n\n"
            block, sid, text = [], "", ""
            continue
        if line.startswith("# sent_id = "):
            sid = line[len("# sent_id = "):].strip()
        elif line.startswith("# text = "):
            text = line[len("# text = "):].strip()
        block.append(_filled(line))
    if block:
        yield sid, text, "\n".join(block) + "\n\n"


def _filled(line: str) -> str:
    """A token line with every empty column written ``_``: the SNK annotation sources leave some lemmas
    empty, which UDPipe refuses to read."""
    if line.startswith("#") or "\t\t" not in line and not line.endswith("\t"):
        return line
    return "\t".join(col or "_" for col in line.split("\t"))


def _document_of(sent_id: str) -> str:
    """The source document of a sentence id (CAC ``a10w-s1`` → ``a10w``, SNK ``sme:1357:.d.`` → ``sme:1357``)."""
    if ":" in sent_id:
        return sent_id.rsplit(":", 2)[0] if sent_id.endswith(".") else sent_id.rsplit(":", 1)[0]
    return sent_id.split("-s", 1)[0]


def excluded(corpora: Iterable[str | Path]) -> tuple[set[str], set[str]]:
    """Ids and texts of the documents of JSONL corpora (the sentences a model must not see)."""
    ids: set[str] = set()
    texts: set[str] = set()
    for path in corpora:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                doc = json.loads(line)
                ids.add(str(doc.get("id", "")))
                texts.add(" ".join(str(doc.get("text", "")).split()))
    return ids, texts


def training_data(treebanks: Sequence[str | Path], exclude: Sequence[str | Path] = (),
                  whole_documents: bool = False, max_sentences: int | None = None) -> tuple[str, dict[str, int]]:
    """The CoNLL-U text to train on and counts (sentences kept/left out per file); with ``max_sentences``
    an even sample (every n-th sentence), so a large treebank trains in reasonable time."""
    if max_sentences:
        data, counts = training_data(treebanks, exclude, whole_documents)
        blocks = [b + "\n\n" for b in data.split("\n\n") if b.strip()]
        step = max(1, -(-len(blocks) // max_sentences))
        counts["sampled"] = len(blocks[::step])
        return "".join(blocks[::step]), counts
    ids, texts = excluded(exclude)
    docs = {_document_of(i) for i in ids} if whole_documents else set()
    out: list[str] = []
    counts: dict[str, int] = {}
    for tb in treebanks:
        kept = dropped = 0
        for sid, text, block in _sentences(Path(tb)):
            if sid in ids or " ".join(text.split()) in texts or (docs and _document_of(sid) in docs):
                dropped += 1
                continue
            kept += 1
            out.append(block)
        counts[f"{Path(tb).name}:kept"] = kept
        counts[f"{Path(tb).name}:excluded"] = dropped
    return "".join(out), counts


def train(treebanks: Sequence[str | Path], out: str | Path, exclude: Sequence[str | Path] = (),
          whole_documents: bool = False, options: str = TAGGER_OPTIONS,
          parser: str = "none", valency_out: str | Path | None = None,
          max_sentences: int | None = None) -> dict[str, object]:
    """Train a UDPipe tagger (no tokenizer, no parser) and write it with a JSON record beside it.

    With ``parser`` options (:data:`PARSER_OPTIONS`) and ``options="none"`` it trains a parser only
    (on the treebank's gold tags; it is run on the tagger's).  With ``valency_out`` the prepositions'
    cases by governing word (:mod:`.valency`) are learned from the same sentences and written there."""
    from ufal.udpipe import InputFormat, Model, ProcessingError, Sentence, Sentences, Trainer

    data, counts = training_data(treebanks, exclude, whole_documents, max_sentences)
    if valency_out is not None:
        from psan.tool.morph.valency import write
        write(data, valency_out)
    reader = InputFormat.newConlluInputFormat()
    reader.setText(data)
    sentences = Sentences()
    error = ProcessingError()
    sentence = Sentence()
    while reader.nextSentence(sentence, error):
        sentences.push_back(sentence)
        sentence = Sentence()
    if error.occurred():
        raise ValueError(f"cannot read the treebanks: {error.message}")
    started = time.time()
    model = Trainer.train("morphodita_parsito", sentences, Sentences(), "none", options, parser, error)
    if error.occurred():
        raise RuntimeError(f"training failed: {error.message}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(model if isinstance(model, bytes) else model.encode("latin-1"))
    if Model.load(str(out)) is None:
        raise RuntimeError(f"{out}: the written model does not load")
    record = {"treebanks": [Path(t).name for t in treebanks], "excluded_corpora": [Path(e).name for e in exclude],
              "whole_documents": whole_documents, "sentences": counts, "options": options, "parser": parser,
              "seconds": round(time.time() - started, 1),
              "licence": "derived from Universal Dependencies treebanks, CC BY-SA 4.0 (see each treebank's LICENSE; "
                         "FicTree: CC BY-NC-SA 4.0, non-commercial)"}
    out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record
