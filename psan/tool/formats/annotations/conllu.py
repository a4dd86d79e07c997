"""CoNLL-U with named entities in the MISC column: ``NER=B-PER`` (IOB2), beside ``SpaceAfter=No``.

Why MISC and not an eleventh column: the file stays valid CoNLL-U (ten columns), so UD tools, UDPipe and
validators read it, and MISC is where UD puts such extras (``SpaceAfter``, UNER-style ``NER``).  Reading
also takes an eleventh column as the tag when MISC has no ``NER``.  Documents start with ``# newdoc id =
<name>``, sentences carry ``# sent_id`` and ``# text`` (the sentence's text, line breaks as blanks).  Read
alone, a document's text is rebuilt from its tokens and ``SpaceAfter=No``; imported into a known
document, the tokens are found again in its text.  Multi-word token ranges (``1-2``) and empty nodes
(``1.1``) carry no tag and are skipped.
"""
from __future__ import annotations

from collections.abc import Sequence

from psan.tool.formats.annotations import register
from psan.tool.formats.annotations.base import AnnotatedText, AnnotationFormatError, decode
from psan.tool.formats.annotations.bio import spans_from_tags, tagged_sentences


def _ner(misc: str, extra: str | None) -> str:
    for item in misc.split("|"):
        if item.startswith("NER="):
            return item[4:]
    return extra if extra is not None else "O"


class Conllu:
    name = "conllu"
    title = "CoNLL-U (NER in MISC)"
    suffix = ".conllu"
    multi_document = True
    nests = False

    def read(self, data: bytes, name: str) -> list[AnnotatedText]:
        docs: list[AnnotatedText] = []
        state = {"name": None, "parts": [], "tokens": [], "tags": [], "pos": 0, "open": False}

        def flush() -> None:
            if state["open"] or state["tokens"]:
                doc = AnnotatedText(name=state["name"], text="".join(state["parts"]), tokens=list(state["tokens"]),
                                    token_based=True)
                doc.spans = spans_from_tags(state["tokens"], state["tags"], f"document {len(docs) + 1}")
                docs.append(doc)
            state.update(name=None, parts=[], tokens=[], tags=[], pos=0, open=False)

        for lineno, line in enumerate(decode(data, "CoNLL-U").split("\n"), start=1):
            line = line.rstrip("\r")
            if line.startswith("#"):
                key, _, value = line[1:].partition("=")
                if key.strip() == "newdoc id" or key.strip() == "newdoc":
                    flush()
                    state["name"] = value.strip() or None
                    state["open"] = True
                continue
            if not line.strip():
                if state["tokens"] and state["parts"] and state["parts"][-1] != "\n":  # sentence end: a line break
                    if state["parts"][-1] == " ":
                        state["parts"][-1] = "\n"
                    else:
                        state["parts"].append("\n")
                        state["pos"] += 1
                continue
            cols = line.split("\t")
            if len(cols) < 10:
                raise AnnotationFormatError(f"line {lineno}: a CoNLL-U token line has 10 tab-separated columns, "
                                            f"this one {len(cols)}")
            if "-" in cols[0] or "." in cols[0]:
                continue
            if not cols[0].isdigit():
                raise AnnotationFormatError(f"line {lineno}: bad token id {cols[0]!r}")
            form = cols[1]
            if not form:
                raise AnnotationFormatError(f"line {lineno}: empty word form")
            state["tokens"].append((state["pos"], state["pos"] + len(form)))
            state["tags"].append(_ner(cols[9], cols[10] if len(cols) > 10 else None))
            state["parts"].append(form)
            state["pos"] += len(form)
            space_after = "SpaceAfter=No" not in cols[9].split("|")
            if space_after:
                state["parts"].append(" ")
                state["pos"] += 1
        flush()
        for doc in docs:  # the rebuilt text has no trailing blank or line break
            doc.text = (doc.text or "").rstrip(" \n") if doc.text else doc.text
        return docs

    def write(self, docs: Sequence[AnnotatedText]) -> tuple[bytes, int]:
        lines: list[str] = []
        dropped = 0
        for d, doc in enumerate(docs, start=1):
            text = doc.text or ""
            lines.append(f"# newdoc id = {' '.join((doc.name or f'document-{d}').split())}\n")
            sentences, left = tagged_sentences(doc)
            dropped += left
            for k, sentence in enumerate(sentences, start=1):
                lines.append(f"# sent_id = {d}-{k}\n")
                lines.append(f"# text = {' '.join(text[sentence[0][0]:sentence[-1][1]].split())}\n")
                for i, (s, e, tag) in enumerate(sentence, start=1):
                    misc = [f"NER={tag}"]
                    if i < len(sentence) and sentence[i][0] == e:
                        misc.append("SpaceAfter=No")
                    lines.append(f"{i}\t{text[s:e]}\t_\t_\t_\t_\t_\t_\t_\t{'|'.join(misc)}\n")
                lines.append("\n")
        return "".join(lines).encode("utf-8"), dropped


register(Conllu())
