"""A borrowed (cross-lingual) NER model's pieces inside a native model's name (Polish precision)."""
from __future__ import annotations

from collections.abc import Callable

from psan.tool.detection.candidate_combination import drop_nested_borrowed
from psan.tool.detection.pipeline import Pipeline
from psan.tool.text.document import Category, CharSpan


def span(text: str, phrase: str, category: Category, source: str, type_: str = "X") -> CharSpan:
    start = text.index(phrase)
    return CharSpan(start, start + len(phrase), type_, category, source)


def test_pieces_inside_a_native_organisation_go_names_and_outside_pieces_stay() -> None:
    text = "Komisja Europejska i Fundacja Jana Kowalskiego oraz Timmermans ."
    native = [span(text, "Komisja Europejska", Category.ORGANIZATION, "pl"),
              span(text, "Fundacja Jana Kowalskiego", Category.ORGANIZATION, "pl")]
    borrowed = [span(text, "Komisja", Category.PERSON, "cs", "pf"),
                span(text, "Europejska", Category.PERSON, "cs", "ps"),
                span(text, "Jana Kowalskiego", Category.PERSON, "cs", "P"),
                span(text, "Komisja Europejska", Category.ORGANIZATION, "cs", "io"),
                span(text, "Timmermans", Category.PERSON, "cs", "ps")]
    kept = [text[s.start:s.end] for s in drop_nested_borrowed(text, native, borrowed, "pl")]
    # equal ranges are the merger's business; a listed first name ("Jana") keeps the person inside the foundation
    assert kept == ["Jana Kowalskiego", "Komisja Europejska", "Timmermans"]


def test_pieces_inside_a_native_person_stay_for_propagation() -> None:
    text = "Georga W. Busha"
    native = [span(text, "Georga W. Busha", Category.PERSON, "sk")]
    borrowed = [span(text, "Busha", Category.PERSON, "cs", "ps")]
    assert drop_nested_borrowed(text, native, borrowed, "sk") == borrowed


def test_polish_pipeline_keeps_no_czech_piece_inside_a_polish_organisation(
        nametag_model: Callable[[str], str]) -> None:
    pl = nametag_model("polish-wikineural-wikiann-trivial.ner")
    cs = nametag_model("czech-cnec2-trivial.ner")
    config = {"language": "pl", "tokenizer": "regex", "recognizers": [], "propagate": False,
              "ner": [{"kind": "nametag", "model": pl, "source": "nametag-pl"},
                      {"kind": "nametag", "model": cs, "source": "nametag-cs", "cross_lingual": True,
                       "categories": ["PERSON", "LOCATION", "ORGANIZATION"]}]}
    text = "Wobec tego Komisja Europejska podjęła decyzję w sprawie Trybunału Konstytucyjnego ."
    doc = Pipeline(config).process(text)
    ranges = [(doc.char_range(e.first_token, e.end_token), e) for e in doc.entities]
    native = [r for r, e in ranges if e.source == "nametag-pl" and e.category != Category.PERSON]
    assert native, "the Polish model finds the organisations"
    for (start, end), e in ranges:
        if e.source == "nametag-cs":
            assert not any(a <= start and end <= b and (a, b) != (start, end) for a, b in native), text[start:end]


def test_polish_sentence_initial_common_words_are_no_names() -> None:
    import pytest

    from psan.tool.detection.candidate_combination import drop_common_initial_words
    from psan.tool.morph.morfeusz import morfeusz_available
    if not morfeusz_available():
        pytest.skip("morfeusz2 not installed")
    text = "Dziś Komisja obraduje . Jeżeli Bruksela zechce , Decyzję poprze Komisja ."
    spans = [span(text, w, Category.LOCATION, "ner") for w in ("Dziś", "Jeżeli", "Bruksela")]
    spans.append(span(text, "Komisja", Category.ORGANIZATION, "ner"))  # not at a sentence start: stays
    kept = [text[s.start:s.end] for s in drop_common_initial_words(text, spans, "pl")]
    assert kept == ["Bruksela", "Komisja"]
    assert drop_common_initial_words(text, spans, "cs") == spans


def test_borrowed_spans_end_in_a_name(nametag_model: Callable[[str], str]) -> None:
    from psan.tool.detection.ner.nametag import NameTagRecognizer
    from psan.tool.text.document import Document
    from psan.tool.text.tokens import tokenize
    ner = NameTagRecognizer(nametag_model("czech-cnec2-trivial.ner"), source="nametag-cs", cross_lingual=True,
                            categories=["PERSON", "LOCATION", "ORGANIZATION"])
    text = ("Komisja wszczęła procedurę w Polsce .\n„ Sprawa Trybunału Konstytucyjnego nie jest zamknięta "
            "- powiedział Frans Timmermans w rozmowie z Walonią ws . CETA .")
    tokens, sentences = tokenize(text, "pl")
    for s in ner.analyze(text, Document(text, tokens, sentences, [], "pl")):
        surface = text[s.start:s.end]
        assert surface == surface.strip(" .,\n") and not surface.split()[-1].islower(), surface


def test_polish_names_hold_a_capital_and_end_without_punctuation() -> None:
    from psan.tool.detection.candidate_combination import names_with_capitals
    text = "Od 1998 r . przez 12 miesięcy , dostęp do sieci , co zrobi Senat ? Zarząd Główny — prezes ."
    spans = [span(text, "1998", Category.ORGANIZATION, "ner"), span(text, "12 miesięcy", Category.OTHER, "ner"),
             span(text, "sieci", Category.LOCATION, "ner"), span(text, "Senat ?", Category.ORGANIZATION, "ner"),
             span(text, "Zarząd Główny —", Category.ORGANIZATION, "ner"),
             span(text, "1998 r", Category.DATE, "ner")]  # a date is no name: untouched
    kept = [text[s.start:s.end] for s in names_with_capitals(text, spans, "pl")]
    assert kept == ["Senat", "Zarząd Główny", "1998 r"]
    # CNEC annotates numbers and units as entities: other languages keep every span
    assert names_with_capitals(text, spans, "cs") == spans


def test_slovak_sentence_initial_common_words_are_no_names() -> None:
    import pytest

    from psan.tool.detection.candidate_combination import drop_common_initial_words
    from psan.tool.words import lexicon
    if not lexicon.available():
        pytest.skip("simplemma (pip extra 'swedish') not installed")
    text = ("Bitka trvala dva dni.\nPracovníci odišli.\nBush prišiel do Iraku.\nMesiac je blízko, "
            "lebo Mesiac obieha Zem.\nSynom Georga H.\nW. Busha.")
    spans = [span(text, w, Category.PERSON, "ner") for w in ("Bitka", "Pracovníci", "Bush", "Mesiac", "W")]
    spans.append(span(text, "Iraku", Category.LOCATION, "ner"))
    kept = [text[s.start:s.end] for s in drop_common_initial_words(text, spans, "sk")]
    # a name's lemma keeps its capital ("Bush"), a word capitalized inside a sentence too ("Mesiac" … "Mesiac"),
    # a single letter is an initial
    assert kept == ["Bush", "Mesiac", "W", "Iraku"]
    assert drop_common_initial_words(text, spans, "cs") == spans


def test_the_slovak_rule_needs_the_dictionary(monkeypatch) -> None:  # noqa: ANN001 - pytest fixture
    from psan.tool.detection.candidate_combination import drop_common_initial_words
    from psan.tool.words import lexicon
    monkeypatch.setattr(lexicon, "available", lambda: False)
    text = "Bitka trvala dva dni."
    spans = [span(text, "Bitka", Category.PERSON, "ner")]
    assert lexicon.is_common_word("Bitka", ["sk"]) is None
    assert drop_common_initial_words(text, spans, "sk") == spans


def test_a_sentence_initial_title_is_cut_from_a_person() -> None:
    import pytest

    from psan.tool.detection.candidate_combination import trim_initial_common_words
    from psan.tool.words import lexicon
    if not lexicon.available():
        pytest.skip("simplemma (pip extra 'swedish') not installed")
    text = ("Viceprezident Richard Cheney pracoval.\nViera Nováková prišla.\nBAŠA JAVŮRKOVÁ\n"
            "Národná rada schválila.\nPodľa Richarda Cheneyho nie.")
    spans = [span(text, p, Category.PERSON, "ner") for p in ("Viceprezident Richard Cheney", "Viera Nováková",
                                                              "BAŠA JAVŮRKOVÁ")]
    spans.append(span(text, "Národná rada", Category.ORGANIZATION, "ner"))  # organisations begin with common words
    spans.append(span(text, "Richarda Cheneyho", Category.PERSON, "ner"))  # not at a sentence start
    kept = [text[s.start:s.end] for s in trim_initial_common_words(text, spans, "sk")]
    # a first name of the name lists and a heading in capitals stay whole
    assert kept == ["Richard Cheney", "Viera Nováková", "BAŠA JAVŮRKOVÁ", "Národná rada", "Richarda Cheneyho"]
    assert trim_initial_common_words(text, spans, "cs") == spans


def test_a_borrowed_person_keeps_its_first_word(nametag_model: Callable[[str], str]) -> None:
    """Only the native model's persons are cut: the Czech model's "Wicepremier Morawiecki" stays whole (cut, its
    pieces nested in it would come loose, as "Komisja" of a "Komisja Europejska" read as a person)."""
    pl = nametag_model("polish-wikineural-wikiann-trivial.ner")
    cs = nametag_model("czech-cnec2-trivial.ner")
    config = {"language": "pl", "tokenizer": "regex", "recognizers": [], "propagate": False,
              "ner": [{"kind": "nametag", "model": pl, "source": "nametag-pl"},
                      {"kind": "nametag", "model": cs, "source": "nametag-cs", "cross_lingual": True,
                       "categories": ["PERSON", "LOCATION", "ORGANIZATION"]}]}
    text = "Wicepremier Morawiecki powiedział . Wicepremier Gowin milczał ."
    native = [span(text, "Wicepremier Morawiecki", Category.PERSON, "nametag-pl", "PER")]
    borrowed = [span(text, "Wicepremier Gowin", Category.PERSON, "nametag-cs", "P")]
    combined = Pipeline(config)._combine_ner(text, [native, borrowed])
    surfaces = sorted(text[s.start:s.end] for s in combined)
    if surfaces == ["Wicepremier Gowin", "Wicepremier Morawiecki"]:
        import pytest
        pytest.skip("morfeusz2 not installed")
    assert surfaces == ["Morawiecki", "Wicepremier Gowin"]
