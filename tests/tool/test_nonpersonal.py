"""NER candidates that are never personal (precision on TAB): dropped before merging, nothing else."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from psan.tool.detection.merge import resolve
from psan.tool.detection.nonpersonal import (
    CODE_WORDS,
    INSTRUMENT_WORDS,
    NAME_TYPES,
    NEVER_PERSONAL_TYPES,
    TAXES_AND_CURRENCIES,
    TECHNICAL_TERMS,
    drop_never_personal,
    is_never_a_name,
    is_never_personal,
)
from psan.tool.text.document import Category, CharSpan, Document, Sentence, Token


def ner(text: str, value: str, type_: str, start: int = 0) -> CharSpan:
    i = text.index(value, start)
    return CharSpan(i, i + len(value), type_, Category.ORGANIZATION, "spacy", 0.8)


@pytest.mark.parametrize("text,value,type_", [
    ("The Court notes that the applicant complained.", "Court", "ORG"),
    ("It was examined by the Chamber of the Fourth Section.", "the Chamber", "ORG"),
    ("THE FACTS\n\nThe applicant was born in 1960.", "FACTS", "ORG"),
    ("They relied, inter alia, on the contract.", "inter alia", "ORG"),
    ("lodged with the European Commission of Human Rights", "the European Commission of Human Rights", "ORG"),
    ("The Government did not reply.", "Government", "ORG"),
    ("under Article 29 § 3 of the Convention", "Article 29 § 3 of the Convention", "LAW"),
    ("(Rule 26 § 1 of the Rules of Court)", "Rule 26 § 1 of the Rules of Court", "LAW"),
    ("The first hearing was held.", "first", "ORDINAL"),
    ("the Fourth Section (Rule 52 § 1).", "1", "CARDINAL"),
    ("He complained under Articles 8 and 14 of the Convention.", "14", "CARDINAL"),
    # numbers of national instruments, and NER "dates" that hold no date
    ("convicted under section 8 of Law no. 4471 (the Press Act)", "4471", "DATE"),
    ("convicted under section 8 of Law no. 4471 (the Press Act)", "no. 4471", "CARDINAL"),
    ("as provided by the Leasehold Act 1987, the", "1987", "DATE"),
    ("he received a pension monthly", "monthly", "DATE"),
    ("He was released the same day.", "the same day", "DATE"),
    ("In the following months nothing happened.", "the following months", "DATE"),
    # third round: offices of prosecution, possessives, general codes, instruments taken for persons,
    # heading and sub-paragraph numbers, partitive counts, periods without a number
    ("The Chief Public Prosecutor objected.", "Chief Public Prosecutor", "ORG"),
    ("the Regional Governor refused the permit", "the Regional Governor", "ORG"),
    ("The Tribunal dismissed the appeal.", "Tribunal", "ORG"),
    ("The District Court's judgment was upheld.", "District Court's", "ORG"),
    ("represented by the Director of Legal Affairs", "the Director of Legal Affairs", "ORG"),
    ("It was the Court's view that", "Court's", "ORG"),
    ("the Second Section (Rule 52 § 1)", "Second Section (Rule", "FAC"),
    ("under Article 212 of the Code of Criminal Procedure", "Article 212 of the Code of Criminal Procedure", "LAW"),
    ("as the Penal Code provides", "Penal Code", "ORG"),
    ("Article 7 of the Constitution", "Article 7 of the Constitution", "LAW"),
    ("It was repealed by Law no. 4321 in May.", "Law", "PERSON"),
    ("as defined in the Anti-Smuggling Law, the", "Law", "PERSON"),
    ("the debts.\n\n2. The proceedings before the court", "2", "CARDINAL"),
    ("pursuant to Article 41 (3) of the Act", "3", "CARDINAL"),
    ("He owned five flats, two of which were let.", "two", "CARDINAL"),
    ("The court held four hearings, one of the hearings was adjourned.", "one", "CARDINAL"),
    ("They arrived on the same day.", "same day", "PERIOD"),
    ("a villa built in the late 18th century", "the late 18th century", "PERIOD"),
    # weekdays, months alone, weeks relative to today, units without a number (meetings' agendas)
    ("Let's meet on Monday.", "Monday", "DATE"),
    ("We will see next Friday morning.", "next Friday morning", "DATE"),
    ("It was finished last week.", "last week", "DATE"),
    ("by the end of this week", "the end of this week", "PERIOD"),
    ("the release is planned for early next week", "early next week", "PERIOD"),
    ("over the weekend", "the weekend", "DATE"),
    ("in September the applicant", "September", "DATE"),
    ("by mid July at the latest", "mid July", "DATE"),
    ("the day after tomorrow", "the day after tomorrow", "PERIOD"),
    ("who writes the minutes?", "minutes", "PERIOD"),
    # dates of public law: a Convention protocol coming into force, an instrument designated by its date
    ("transmitted to the Court on 1 November 1998, when Protocol No. 11 to the Convention came into force",
     "1 November 1998", "DATE"),
    ("Protocol No. 14 to the Convention entered into force on 1 June 2010.", "1 June 2010", "DATE"),
    ("By Law no. 5190 of 16 June 2004, published in", "16 June 2004", "DATE"),
    ("under section 5 of the Law of 17 June 2004 (", "17 June 2004", "DATE"),
    ("transmitted to the Court on 1 November 1998, when Protocol No. 11 to the Convention came into force",
     "November 1998", "DATE"),  # the month and year of a full date
    ("Following promulgation of the Law of 27 December 1993, the", "December 1993", "DATE"),
    # technical terms in a technical meeting (ELITR: spaCy's ORG and PRODUCT)
    ("So we convert it to XML and then", "XML", "ORG"),
    ("it runs over HTTPS, so the certificate", "HTTPS", "ORG"),
    ("training on the GPU takes a day", "the GPU", "ORG"),
    ("the script is in Python", "Python", "PRODUCT"),
])
def test_public_everywhere(text: str, value: str, type_: str) -> None:
    assert is_never_personal(text, ner(text, value, type_), "en")


@pytest.mark.parametrize("text,value,type_", [
    ("before the Istanbul State Security Court", "the Istanbul State Security Court", "ORG"),
    ("held in HM Prison Manchester", "HM Prison Manchester", "ORG"),
    ("the Court of Cassation upheld it", "the Court of Cassation", "ORG"),  # which country's proceedings
    ("The Turkish Government were represented", "The Turkish Government", "ORG"),
    ("against the Republic of Turkey", "the Republic of Turkey", "GPE"),
    ("regulated by the Reindeer Husbandry Act", "the Reindeer Husbandry Act", "LAW"),
    ("pursuant to Article 187 of the Turkish Civil Code", "Article 187 of the Turkish Civil Code", "LAW"),
    ("the applicant and seven other persons", "seven", "CARDINAL"),
    ("plots nos. 260, 268 and 425", "425", "CARDINAL"),
    ("Mr Court lives in Leeds.", "Mr Court", "PERSON"),
    ("Then Court said that she would appeal.", "Court", "PERSON"),  # a person type is never dropped
    ("He was born in 1987 in Leeds.", "1987", "DATE"),
    ("He spent ten years in prison.", "ten years", "DATE"),
    ("the winter pastures of the herd", "winter", "DATE"),
    ("under the Fisheries Act", "the Fisheries Act", "LAW"),  # the subject of an Act tells the applicant's trade
    ("Article 98 of the Greek Civil Code", "Article 98 of the Greek Civil Code", "LAW"),
    ("the Supreme Administrative Court dismissed it", "the Supreme Administrative Court", "ORG"),
    ("the Malmö Public Prosecutor appealed", "the Malmö Public Prosecutor", "ORG"),
    ("the Bavarian Regional Board of Appeal", "the Bavarian Regional Board of Appeal", "ORG"),
    ("the Leeds District Court held", "the Leeds District Court", "ORG"),
    ("the District Court in Nowy Targ held", "the District Court", "ORG"),  # its place follows
    ("the Labour Court dismissed it", "the Labour Court", "ORG"),  # a specialised court: which proceedings
    ("Mr Law lives in Leeds.", "Law", "PERSON"),
    ("Law was a witness.", "Law", "PERSON"),
    ("the applicant and three other suspects", "three", "CARDINAL"),
    ("The applicant filed two separate actions.", "two", "CARDINAL"),
    ("He was sentenced to two years of imprisonment.", "two years", "PERIOD"),
    ("in the summer of 1996 he left", "the summer of 1996", "DATE"),
    ("on Monday 3 May 2004 he left", "Monday 3 May 2004", "DATE"),
    ("in June 1998 he left", "June 1998", "DATE"),
    ("the deadline is June 15th", "June 15th", "DATE"),
    ("we need two weeks", "two weeks", "PERIOD"),
    # a national law's or the Court's dates, a cited case (it may be the applicant's own), a person's date
    ("The case originated in an application (no. 37222/04) against", "37222/04", "CASE_NUMBER"),
    ("Könkämä v. Sweden, no. 27033/95, Commission decision of 25 November 1996, Decisions", "25 November 1996",
     "DATE"),
    ("Könkämä v. Sweden, no. 27033/95, Commission decision of 25 November 1996, Decisions", "27033/95",
     "CASE_NUMBER"),
    ("Stec and Others v. the United Kingdom [GC], nos. 65731/01 and 65900/01, 12 April 2006)", "12 April 2006",
     "DATE"),
    ("a Law on the applicant's land of 5 May 2003", "5 May 2003", "DATE"),
    ("his Act of 5 May 2003 was", "Act of 5 May 2003", "DATE"),
    ("By a Decree of 5 May 1999 the President dismissed the applicant", "5 May 1999", "DATE"),
    ("The Law was adopted. On 3 May 2001 he left", "3 May 2001", "DATE"),
    ("On 1 November 2001 the Court changed the composition of its Sections", "1 November 2001", "DATE"),
    ("the Reindeer Grazing Act of 1886 (most", "1886", "DATE"),
    ("the 1998 Act, which had entered into force on 10 January 1998.", "10 January 1998", "DATE"),
    ("R v. Lambert [2001] 3 WLR 206, judgment of 5 July 2001", "5 July 2001", "DATE"),
    ("in Smith v. Jones (judgment of 17 December 1996) the", "17 December 1996", "DATE"),
    ("He was born on 1 November 1998, when the new Act came into force", "1 November 1998", "DATE"),
    ("Kowalski v. Poland was lodged by the applicant on 5 May 2003", "5 May 2003", "DATE"),
    ("the decision no. 45874/05 of the District Court", "45874/05", "CASE_NUMBER"),
    ("a breach of Articles 3 and 8 of the Convention", "Articles 3", "PERSON"),  # see the module docstring
    # companies, platforms and projects are kept (an employer tells), and so is a term that is also a name
    ("she worked at Google until 2019", "Google", "ORG"),
    ("we put it on GitHub", "GitHub", "ORG"),
    ("the XML Consortium sent", "the XML Consortium", "ORG"),
    ("Mr Python lives in Leeds.", "Mr Python", "PERSON"),
    ("the python escaped", "python", "PRODUCT"),
])
def test_kept_when_it_can_identify(text: str, value: str, type_: str) -> None:
    assert not is_never_personal(text, ner(text, value, type_), "en")


def test_other_languages_and_pattern_spans_pass_through() -> None:
    text = "Ústavní soud rozhodl."
    assert drop_never_personal(text, [ner(text, "Ústavní soud", "ic")], "cs") != []
    date = CharSpan(0, 5, "DATE", Category.DATE, "date", 0.9, 20)
    assert drop_never_personal("first", [date], "en") == [date]


def test_resolve_drops_them_before_merging() -> None:
    text = "The Court heard Mr Akyazıcı."
    tokens = [Token(0, 0, 3), Token(1, 4, 9), Token(2, 10, 15), Token(3, 16, 18), Token(4, 19, 27), Token(5, 27, 28)]
    doc = Document(text, tokens, [Sentence(0, 6)], [], "en")
    found = resolve(doc, [ner(text, "Court", "ORG"), ner(text, "Akyazıcı", "PERSON")])
    assert [(e.first_token, e.type) for e in found] == [(4, "PERSON")]



_WORDS = st.sampled_from(["the", "Court", "Chamber", "of", "Istanbul", "Ali", "Erden", "Government", "Supreme",
                          "Article", "6", "§", "1", "Convention", "Rule", "Mr", "Smith", "FACTS", "Turkish",
                          "Law", "no.", "Criminal", "Code", "Public", "Prosecutor", "two", "\n"])
_TYPES = st.sampled_from(["ORG", "PERSON", "GPE", "LAW", "ORDINAL", "CARDINAL", "DATE", "CASE_NUMBER", "EMAIL",
                          "SPEAKER", "TITLED_NAME", "pf", "ps", "P"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=8), _TYPES, st.sampled_from(["en", "cs", "pl"]))
def test_only_ner_candidates_made_of_generic_words_are_dropped(words: list[str], type_: str, language: str) -> None:
    """The safety side: a dropped candidate is an English NER type, and a name-type span has no other word."""
    text = " ".join(words)
    span = CharSpan(0, len(text), type_, Category.OTHER, "x", 0.5)
    if not is_never_personal(text, span, language):
        return
    assert language == "en"  # the words of every language's rule (technical terms, taxes, months) are not sampled
    assert type_ in NEVER_PERSONAL_TYPES | NAME_TYPES | {"LAW", "CARDINAL", "QUANTITY", "DATE", "TIME", "PERSON"}
    if type_ in ("DATE", "TIME"):  # a time type only when it holds no day, month or year of its own
        assert not any(w.isdigit() for w in words)
    if type_ == "PERSON":  # a person only when the span is one instrument word ("Law no. 3713", "the Law")
        assert text.lower() in INSTRUMENT_WORDS
    if type_ in NAME_TYPES:
        assert all(w.lower().rstrip(".") in CODE_WORDS for w in words if w[0].isalpha())
        assert not {"Istanbul", "Ali", "Erden", "Smith", "Turkish", "Supreme", "Mr"} & set(words)


def _found(text: str, value: str, category: Category, source: str = "nametag-cs") -> CharSpan:
    i = text.index(value)
    return CharSpan(i, i + len(value), "x", category, source, 0.8)


@pytest.mark.parametrize("language,text,value,category", [
    ("pl", "Nieznani cyberprzestępcy przeprowadzili atak DDoS na Komisję.", "DDoS", Category.PERSON),
    ("pl", "dwukrotnie odcięto nas od Internetu na kilka godzin", "Internetu", Category.OTHER),
    ("pl", "kasowania mowy nienawiści w Internecie", "Internecie", Category.LOCATION),
    ("pl", "luka w VAT jest dużo wyższa", "VAT", Category.ORGANIZATION),
    ("cs", "Cena vzrostla o 5 USD za barel.", "USD", Category.ORGANIZATION),
    ("pl", "toteż V–XI 2004 liczyła ona 30 osób", "XI", Category.ORGANIZATION),
    ("sk", "od 1 V 2004 platí", "V", Category.LOCATION),
    ("en", "we send the XML over HTTPS", "HTTPS", Category.ORGANIZATION),
])
def test_never_a_name_in_any_language(language: str, text: str, value: str, category: Category) -> None:
    """A technical term, a tax or currency, a month numeral: a wrong reading of the NER in every language."""
    span = _found(text, value, category)
    assert is_never_personal(text, span, language)
    assert drop_never_personal(text, [span], language) == []


@pytest.mark.parametrize("language,text,value,category", [
    ("en", "Mr Perl said that Python was late.", "Perl", Category.PERSON),  # a surname too
    ("cs", "Pan Python přišel.", "Python", Category.PERSON),
    ("cs", "Cena je 5 USD.", "USD", Category.OTHER),  # CNEC's currency entity (om)
    ("pl", "Jan Paweł II odwiedził Kraków.", "II", Category.PERSON),  # a regnal numeral
    ("en", "Chapter XI of the plan", "XI", Category.ORGANIZATION),  # English writes no month so
    ("pl", "Komisja Europejska i VAT-owcy", "Komisja Europejska", Category.ORGANIZATION),
    ("cs", "Cena je 5 USD.", "USD", Category.ID),
])
def test_names_and_other_categories_stay(language: str, text: str, value: str, category: Category) -> None:
    assert not is_never_personal(text, _found(text, value, category), language)


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=12), st.sampled_from(list(Category)), st.sampled_from(["en", "cs", "pl", "sv"]))
def test_never_a_name_only_for_listed_words_of_name_categories(value: str, category: Category, language: str) -> None:
    """The safety side: only the listed words, only in name categories, a person only with two capitals."""
    if not is_never_a_name(value, category, language):
        return
    assert category in (Category.PERSON, Category.LOCATION, Category.ORGANIZATION, Category.OTHER)
    assert value in TECHNICAL_TERMS | TAXES_AND_CURRENCIES or value in {"I", "II", "III", "IV", "V", "VI", "VII",
                                                                        "VIII", "IX", "X", "XI", "XII"}
    if category == Category.PERSON:
        assert value in TECHNICAL_TERMS and sum(ch.isupper() for ch in value) >= 2


@pytest.mark.parametrize("language,text", [
    ("en", "He joined the British National Party (BNP) in 1990. Later the BNP expelled him."),
    ("en", "the British National Party (“the BNP”) and then the BNP"),
    ("cs", "Předseda strany Bohemia Národní Pokrok (BNP) řekl, že BNP kandiduje."),
])
def test_a_listed_acronym_the_text_defines_after_its_name_is_kept(language: str, text: str) -> None:
    """"BNP" is the gross national product on the tax list; a text that writes "British National Party (BNP)" means
    the party in every mention."""
    last = text.rindex("BNP")
    span = CharSpan(last, last + 3, "ORG", Category.ORGANIZATION, "spacy", 0.8)
    assert not is_never_personal(text, span, language)
    assert drop_never_personal(text, [span], language) == [span]


@pytest.mark.parametrize("language,text,value", [
    ("en", "The BNP grew by 2 %.", "BNP"),  # not defined: the listed reading
    ("en", "He paid value added tax (VAT) and then VAT again.", "VAT"),  # a long form in lower case: no name
    ("en", "He paid Value Added Tax (VAT) and then VAT again.", "VAT"),  # the long form names a tax
    ("cs", "Hrubý domácí produkt (HDP) rostl a HDP dál roste.", "HDP"),
    ("en", "the British National Party (BNP) and its XML in Natural Markup Language (XML)", "XML"),  # technical
])
def test_a_definition_that_names_a_tax_or_no_name_keeps_the_list(language: str, text: str, value: str) -> None:
    last = text.rindex(value)
    span = CharSpan(last, last + len(value), "ORG", Category.ORGANIZATION, "spacy", 0.8)
    assert is_never_personal(text, span, language)


def test_kept_answers_never_cross_to_another_text_or_type():
    """The answers are kept per text: the same offsets in another text, or with another type, are asked anew."""
    taxed, named = "The VAT was paid.", "The Bob was here."
    vat = CharSpan(4, 7, "ORG", Category.ORGANIZATION, "ner", 0.5)
    assert is_never_personal(taxed, vat, "en")
    assert not is_never_personal(named, vat, "en")
    assert is_never_personal(taxed, vat, "en")
    assert not is_never_personal(named, CharSpan(4, 7, "PERSON", Category.PERSON, "ner", 0.5), "en")
    copy = "".join(["The VAT ", "was paid."])  # an equal text that is another object
    assert is_never_personal(copy, vat, "en") == is_never_personal(taxed, vat, "en")
