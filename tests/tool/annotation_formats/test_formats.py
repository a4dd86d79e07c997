"""Small fixtures per format: files as the other tools write them read right, psan's files read in those tools'
terms (XMI in dkpro-cassis with INCEpTION's type names, Label Studio's documented task structure), and every
malformed file is an AnnotationFormatError with a message, never another exception."""
from __future__ import annotations

import io
import json

import pytest

from psan.tool.formats.annotations import (
    AnnotatedText,
    AnnotationFormatError,
    attach,
    category_for,
    format_names,
    make_span,
    read_file,
    write_file,
)
from psan.tool.formats.annotations.labels import DEFAULT_CATEGORY, TABLE
from psan.tool.text.categories import category_of
from psan.tool.text.document import Category

TEXT = "Dr. Jan Novák 😀 bydlí v Praze.\nVolejte +420 777 123 456, ČEZ a.s."


def _span(text: str, label: str, nth: int = 0):
    i = -1
    for _ in range(nth + 1):
        i = TEXT.index(text, i + 1)
    return make_span(i, i + len(text), label)


SPANS = [_span("Jan Novák", "PER"), _span("Novák", "ps"), _span("Praze", "LOC"), _span("+420 777 123 456", "PHONE"),
         _span("ČEZ a.s.", "ORG")]


def test_label_table_agrees_with_psan_categories_and_unknown_labels_are_other() -> None:
    for category, labels, _ in TABLE:
        for label in labels:
            assert category_for(label) is category
            # the table shows what psan's own mapping does, wherever that knows the label
            assert category_of(label) in (category, Category.OTHER), label
    assert category_for("B-GPE") is Category.LOCATION and category_for("i-per") is Category.PERSON
    assert category_for("ps") is Category.PERSON  # CNEC surname
    assert category_for("SOMETHING_ELSE") is DEFAULT_CATEGORY is Category.OTHER


def test_xmi_loads_in_cassis_with_inception_type_names() -> None:
    from cassis import load_cas_from_xmi, load_dkpro_core_typesystem
    data = write_file("xmi", [AnnotatedText("a.txt", TEXT, SPANS)]).data
    ts = load_dkpro_core_typesystem()
    meta = ts.create_type("de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData",
                          supertypeName="uima.tcas.DocumentAnnotation")  # as DKPro Core / INCEpTION declare it
    for feature in ("documentTitle", "documentId", "documentUri", "collectionId", "documentBaseUri"):
        ts.create_feature(meta, feature, "uima.cas.String")
    ts.create_feature(meta, "isLastSegment", "uima.cas.Boolean")
    cas = load_cas_from_xmi(io.BytesIO(data), typesystem=ts)  # strict: every type and feature known
    assert cas.sofa_string == TEXT
    entities = sorted((ne.begin, ne.end, ne.value) for ne in
                      cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"))
    assert entities == sorted((s.start, s.end, s.label) for s in SPANS)
    assert [cas.sofa_string[ne.begin:ne.end] for ne in
            cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity")][0] == "Jan Novák"
    assert len(cas.select("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence")) >= 2
    assert any(cas.sofa_string[t.begin:t.end] == "Praze"
               for t in cas.select("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"))
    assert b"\xf0\x9f\x98\x80" in data  # the emoji is in the sofa; cassis wrote UTF-16 offsets after it


def test_xmi_made_with_cassis_and_a_custom_layer_is_read() -> None:
    """What INCEpTION exports: DKPro types plus a project's own layer (ignored)."""
    from cassis import Cas, load_dkpro_core_typesystem
    ts = load_dkpro_core_typesystem()
    custom = ts.create_type("webanno.custom.Sentiment", supertypeName="uima.tcas.Annotation")
    ts.create_feature(custom, "polarity", "uima.cas.String")
    cas = Cas(typesystem=ts)
    cas.sofa_string = TEXT
    ne = ts.get_type("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity")
    start = TEXT.index("Praze")
    cas.add(ne(begin=start, end=start + 5, value="LOC"))
    cas.add(custom(begin=0, end=3, polarity="neutral"))
    doc = read_file("xmi", cas.to_xmi().encode("utf-8"), "inception.xmi")[0]
    assert [(s.start, s.end, s.category) for s in doc.spans] == [(start, start + 5, Category.LOCATION)]
    assert doc.name == "inception"


def test_label_studio_json_has_the_documented_task_structure() -> None:
    decided = json.loads(write_file("labelstudio", [AnnotatedText("a.txt", TEXT, SPANS)]).data)
    machine = json.loads(write_file("labelstudio", [AnnotatedText("a.txt", TEXT, SPANS, decided=False)]).data)
    for tasks, key in ((decided, "annotations"), (machine, "predictions")):
        assert isinstance(tasks, list) and len(tasks) == 1
        task = tasks[0]
        assert task["data"]["text"] == TEXT
        [entry] = task[key]
        for item in entry["result"]:
            assert set(item) >= {"id", "from_name", "to_name", "type", "value"}
            assert item["type"] == "labels" and item["from_name"] == "label" and item["to_name"] == "text"
            value = item["value"]
            assert TEXT[value["start"]:value["end"]] == value["text"]
            assert isinstance(value["labels"], list) and len(value["labels"]) == 1
        assert len(entry["result"]) == len(SPANS)
    assert all("score" in item for item in machine[0]["predictions"][0]["result"])


def test_label_studio_export_of_label_studio_is_read() -> None:
    """A task as Label Studio exports it: an annotation (with a cancelled one before it) and a prediction."""
    start = TEXT.index("Jan Novák")
    item = {"id": "x1", "from_name": "label", "to_name": "text", "type": "labels", "origin": "manual",
            "value": {"start": start, "end": start + 9, "text": "Jan Novák", "labels": ["Person"]}}
    task = {"id": 7, "data": {"text": TEXT}, "annotations": [
        {"id": 1, "was_cancelled": True, "result": []},
        {"id": 2, "completed_by": 1, "was_cancelled": False, "result": [item, {"type": "choices", "value": {}}]}],
        "predictions": [{"model_version": "v1", "score": 0.4, "result": []}]}
    [doc] = read_file("labelstudio", json.dumps([task]).encode(), "export.json")
    assert [(s.start, s.end, s.category) for s in doc.spans] == [(start, start + 9, Category.PERSON)]


WEBANNO = """#FORMAT=WebAnno TSV 3.3
#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue|coarseValue
#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value


#Text=Veoma mlada se udaje za Stefana Karačija .
1-1\t0-5\tVeoma\t_\t_\t_\t_\t
1-2\t6-11\tmlada\t_\t_\t_\t_\t
1-3\t12-14\tse\t_\t_\t_\t_\t
1-4\t15-20\tudaje\t_\t_\t_\t_\t
1-5\t21-23\tza\t_\t_\t_\t_\t
1-6\t24-31\tStefana\t_\t_\thttp://www.wikidata.org/entity/Q1[1]|*\tPERS[1]|LOC\t
1-7\t32-40\tKaračija\t_\t_\thttp://www.wikidata.org/entity/Q1[1]\tPERS[1]\t
1-8\t41-42\t.\t_\t_\t_\t_\t
"""


def test_webanno_tsv_as_inception_writes_it() -> None:
    [doc] = read_file("webanno", WEBANNO.encode(), "doc.tsv")
    text = "Veoma mlada se udaje za Stefana Karačija ."
    assert doc.text == text
    assert sorted((text[s.start:s.end], s.label, s.category) for s in doc.spans) == [
        ("Stefana", "LOC", Category.LOCATION), ("Stefana Karačija", "PERS", Category.PERSON)]
    # on the real text (another spacing), the tokens are found again
    moved = attach(doc, "Veoma  mlada se udaje za Stefana Karačija.", "doc.tsv")
    assert sorted((moved.text[s.start:s.end], s.label) for s in moved.spans)[1] == ("Stefana Karačija", "PERS")


def test_conll_iob1_and_conllu_space_after() -> None:
    [doc] = read_file("conll", b"-DOCSTART- -X- -X- O\n\nJan NNP I-NP I-PER\nNovak NNP I-NP I-PER\nsmiled VBD O O\n"
                               b"Praha NNP I-NP I-LOC\n\n")
    assert [(doc.text[s.start:s.end], s.label) for s in doc.spans] == [("Jan Novak", "PER"), ("Praha", "LOC")]
    conllu = ("# newdoc id = d1\n# text = Jan přišel.\n1\tJan\t_\t_\t_\t_\t_\t_\t_\tNER=B-PER\n"
              "2\tpřišel\t_\t_\t_\t_\t_\t_\t_\tNER=O|SpaceAfter=No\n3\t.\t_\t_\t_\t_\t_\t_\t_\tNER=O\n\n")
    [doc] = read_file("conllu", conllu.encode())
    assert doc.name == "d1" and doc.text == "Jan přišel." and doc.spans[0].key == (0, 3, "PERSON")


def test_brat_discontinuous_entity_is_one_span_and_relations_are_ignored() -> None:
    ann = "T1\tPER 0 3;4 9\tJan Novák\nR1\tRel Arg1:T1 Arg2:T1\n#1\tAnnotatorNotes T1\tnote\nA1\tNeg T1\n"
    [doc] = read_file("brat", ann.encode(), "a.ann")
    assert [s.key for s in doc.spans] == [(0, 9, "PERSON")]


VALID = {name: write_file(name, [AnnotatedText("a.txt", TEXT, SPANS)]).data for name in
         ("webanno", "xmi", "labelstudio", "conll", "conllu", "presidio", "jsonl")}
VALID["brat"] = b"T1\tPER 4 13\tJan Nov\xc3\xa1k\n"


@pytest.mark.parametrize("fmt", sorted(VALID))
def test_truncated_or_corrupted_files_raise_only_format_errors(fmt: str) -> None:
    data = VALID[fmt]
    cases = [data[:n] for n in range(0, len(data), max(1, len(data) // 40))]
    cases += [data.replace(b"\t", b" "), data.replace(b"1", b"x"), data.replace(b"\"", b""), b"\xff\xfe" + data,
              data.replace(b"2", b"99999")]
    for case in cases:
        try:
            docs = read_file(fmt, case, "bad")
            for doc in docs:
                attach(doc, TEXT, "bad")
        except AnnotationFormatError as err:
            assert str(err)


def test_unknown_format_lists_the_known_ones() -> None:
    with pytest.raises(AnnotationFormatError, match="known: " + ", ".join(format_names())):
        read_file("docx", b"")


def test_webanno_escapes_labels_and_sentence_text_as_inception_does() -> None:
    text = "C:\\Users\\jan ma\tsoubor\r\nJan_Novák [1] bydlí v Praze."
    start = text.index("Jan_Novák")
    spans = [make_span(start, start + 9, "PER_1|x[2]*->;"), make_span(text.index("Praze"), len(text) - 1, "LOC")]
    data = write_file("webanno", [AnnotatedText("a", text, spans)]).data.decode("utf-8")
    assert "#Text=C:\\\\Users\\\\jan ma\\tsoubor\n" in data  # backslash and tab escaped
    assert "\tPER\\_1\\|x\\[2\\]\\*\\->\\;\t" in data  # one token: no disambiguation number
    [doc] = read_file("webanno", data.encode("utf-8"), "a.tsv")
    assert doc.text.split() == text.split()  # read alone: sentences at their offsets, blanks between them
    on_text = attach(doc, text, "a.tsv")
    assert sorted((s.start, s.end, s.label) for s in on_text.spans) == sorted((s.start, s.end, s.label) for s in spans)


def test_conllu_reads_in_udpipe_with_ner_in_misc() -> None:
    """The CoNLL-U psan writes is valid CoNLL-U for UD tools: UDPipe's reader takes it word by word."""
    udpipe = pytest.importorskip("ufal.udpipe", reason="UDPipe (extra 'morph') is not installed")
    data = write_file("conllu", [AnnotatedText("a.txt", TEXT, SPANS)]).data.decode("utf-8")
    reader = udpipe.InputFormat.newConlluInputFormat()
    reader.setText(data)
    sentence, error = udpipe.Sentence(), udpipe.ProcessingError()
    forms, miscs = [], []
    while reader.nextSentence(sentence, error):
        for word in list(sentence.words)[1:]:  # words[0] is the technical root
            forms.append(word.form)
            miscs.append(word.misc)
    assert not error.occurred(), error.message
    assert "Novák" in forms and "Praze" in forms
    assert miscs[forms.index("Jan")].startswith("NER=B-PER")
    assert miscs[forms.index("Praze")] == "NER=B-LOC|SpaceAfter=No"
