from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.text.document import Sentence, Token
from psan.tool.text.tokens import (
    XML_FORBIDDEN_RE,
    clean_tokens,
    split_tokens_and_sentences,
    split_tokens_at,
    tokenize,
)


def texts(text, language=None):
    tokens, sentences = tokenize(text, language)
    return [t.text(text) for t in tokens], [
        text[tokens[s.first_token].start:tokens[s.end_token - 1].end] for s in sentences]


def test_words_numbers_punctuation():
    toks, _ = texts("Don't stop: 3.14, 1,000.5 at 12:30 on 2021-05-01 in Frýdek-Místek (1/2)!")
    assert toks == ["Don't", "stop", ":", "3.14", ",", "1,000.5", "at", "12:30", "on", "2021-05-01", "in",
                    "Frýdek-Místek", "(", "1/2", ")", "!"]


def test_trailing_separators_are_punctuation():
    assert texts("end. 3. -x 'quoted' a--b")[0] == ["end", ".", "3", ".", "-", "x", "'", "quoted", "'", "a", "-", "-",
                                                     "b"]


def test_combining_marks_stay_in_word():
    text = "Nova\u0301k"  # decomposed á
    assert texts(text)[0] == [text]


def test_sentences_and_abbreviations():
    _, sents = texts("Dr. Smith met Mr. J. Brown. They talked! Did they? yes.\n\nNew para", "en")
    assert sents == ["Dr. Smith met Mr. J. Brown.", "They talked!", "Did they? yes.", "New para"]
    _, sents = texts("Bydlí v ul. Dlouhá č. 5, tj. v Praze, např. u nás atd. Pak odešel.", "cs")
    assert sents == ["Bydlí v ul. Dlouhá č. 5, tj. v Praze, např. u nás atd. Pak odešel."]
    _, sents = texts('He said "Stop." Then left.\nNext line')
    assert sents == ['He said "Stop."', "Then left.", "Next line"]
    _, sents = texts("Firma s.r.o. Novák")
    assert sents == ["Firma s.r.o. Novák"]


def test_blank_line_without_punctuation_splits():
    assert texts("Heading\n \nBody text")[1] == ["Heading", "Body text"]
    assert texts("line one\nline two")[1] == ["line one\nline two"]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_token_invariants(text):
    tokens, sentences = tokenize(text)
    prev_end = 0
    for i, tok in enumerate(tokens):
        piece = tok.text(text)
        assert tok.id == i and tok.start >= prev_end and piece
        assert not any(c.isspace() for c in piece) and not XML_FORBIDDEN_RE.search(piece)
        prev_end = tok.end
    # everything outside tokens is whitespace or forbidden
    covered = set()
    for tok in tokens:
        covered.update(range(tok.start, tok.end))
    assert all(text[i].isspace() or XML_FORBIDDEN_RE.match(text[i]) for i in range(len(text)) if i not in covered)
    # sentences partition the tokens
    pos = 0
    for s in sentences:
        assert s.first_token == pos and s.end_token > s.first_token
        pos = s.end_token
    assert pos == len(tokens)


def test_split_tokens_at():
    tokens = [Token(0, 0, 5), Token(1, 6, 16), Token(2, 17, 20)]
    sentences = [Sentence(0, 2), Sentence(2, 3)]
    new_tokens, new_sentences = split_tokens_and_sentences(tokens, sentences, {3, 6, 10, 12, 18, 100})
    assert [(t.id, t.start, t.end) for t in new_tokens] == [
        (0, 0, 3), (1, 3, 5), (2, 6, 10), (3, 10, 12), (4, 12, 16), (5, 17, 18), (6, 18, 20)]
    assert new_sentences == [Sentence(0, 5), Sentence(5, 7)]
    assert split_tokens_at(tokens, set()) == tokens


def test_clean_tokens():
    text = "a b\x1bc\n"
    assert [(t.start, t.end) for t in clean_tokens(text, [Token(0, 0, 3), Token(1, 3, 6)])] == [(0, 1), (2, 3), (4, 5)]
