"""Health conditions as whole mentions: diagnoses, disorders, injuries (special category, GDPR art. 9).

Why: "paranoid schizophrenia", "fracture of the left kneecap", "degenerative discopathy", "37 % loss of
sight" single a person out together with a town and a year, and they are special-category data – the
Text Anonymization Benchmark masks them as quasi-identifiers (its ``DEM`` category).  The term lists of
:mod:`.sensitive` flag a topic word ("schizophrenia", "disability") for the annotator; they do not know
"gonarthrosis" or "sciatica", and they do not cover the condition's whole mention ("paranoid …",
"total …"), so the modifier stays in clear.  This recognizer marks the mention, by the form of medical
words rather than by a list of diseases:

* **medical suffixes** (:data:`SUFFIXES`): "-itis", "-osis", "-pathy", "-algia", "-aemia", "-oma",
  "-plegia", "-opia", "-phrenia", "-ectomy" … on a lower-case word, minus the common words that share
  the ending ("diagnosis", "sympathy", "nostalgia", "academia", "diploma", "utopia", "trophy");
* **condition nouns** with a modifier that says which (:data:`HEADS`): "psychotic illness", "heart
  disease", "post-traumatic stress disorder", "Crohn's disease", "head injury", "total disability";
  a bare "illness" or "disability" (a disability pension, a disability tribunal) is not enough;
* **frames**: "fracture(s) of the …", "loss of sight/vision/hearing …", a percentage of a loss or of a
  disability ("37 % of loss of sight"), a person "with a disability", a spinal segment ("at L5-S1"), and
  the condition after "diagnosed with", "suffering from", "treated for" when it holds one of the words above;
* **condition nouns without a medical ending** (:data:`CONDITION_NOUNS`: "sciatica", "asthma", "epilepsy");
* the **body part** after a condition belongs to it ("calcification of the patella", "lesions to his face":
  :data:`BODY_PARTS`), and so do a measure before it ("-6.25 of myopia") and a lay gloss in brackets after it
  ("myopia (short-sightedness)");
* the condition grows over up to three modifiers before it (:data:`MODIFIERS`, and adjectives by their
  ending: "-ic", "-al", "-ive", "-oid", "-ous", "-ary", "-ying"): "lateral calcification", "severe
  chronic arthritis", "cervico-brachial neuralgia".

Spans are SENSITIVE, type ``HEALTH`` (the topic of :mod:`.sensitive`, so decisions and rules treat them
alike), score 0.3, a priority just above the term lists (a topic word inside a condition gives way to
the condition) and below every name, date and ID.  Like every SENSITIVE span they are suspicious by
default and never suggested public (:mod:`psan.tool.decisions.sensitivity`).  English only for now.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from psan.tool.text.document import Category, CharSpan, Document, Recognizer

PRIORITY_HEALTH = -18
SCORE = 0.3
LANGUAGES = frozenset({"en"})

_H = "[-\u2011\u2010]"  # the hyphens of typeset text ("cervico‑brachial")
#: endings of medical nouns (diseases, disorders, operations)
SUFFIXES = ("itis", "osis", "pathy", "pathies", "algia", "aemia", "emia", "oma", "omas", "plegia", "opia",
            "phrenia", "ectomy", "otomy", "trophy", "plasia", "penia", "rrhage", "rrhoea", "rrhea", "iasis")
#: common words with a medical ending
NOT_MEDICAL = frozenset("""
diagnosis diagnoses prognosis prognoses hypnosis symbiosis metamorphosis osmosis apotheosis
sympathy sympathies empathy antipathy apathy telepathy nostalgia academia bohemia diploma diplomas aroma aromas
stoma soma utopia dystopia cornucopia trophy trophies dichotomy dichotomies anatomy
""".split())
#: nouns of a condition; need a modifier (or a frame) to count
HEADS = ("disorder", "disorders", "syndrome", "disease", "diseases", "illness", "illnesses", "injury", "injuries",
         "infection", "infections", "impairment", "impairments", "degeneration", "insufficiency", "deficiency",
         "paralysis", "failure", "damage", "cancer", "tumour", "tumours", "tumor", "tumors", "disability",
         "disabilities", "invalidity", "incapacity", "calcification", "fracture", "fractures", "complications",
         "addiction", "dependence", "attack", "stroke", "lesion", "lesions", "trauma", "operation", "operations",
         "surgery", "surgeries")
#: conditions whose names have no medical ending: a mention on their own ("episodic onsets of sciatica")
CONDITION_NOUNS = ("sciatica", "asthma", "epilepsy", "diabetes", "hernia", "dementia", "anorexia", "bulimia",
                   "migraine", "migraines", "leukaemia", "leukemia", "pneumonia", "cataract", "cataracts", "gangrene",
                   "eczema", "angina", "insomnia", "autism", "tinnitus", "vertigo", "concussion", "whiplash")
#: parts of the body a condition is "of" or "to" ("calcification of the patella", "injuries to his left hand")
BODY_PARTS = ("patella", "kneecap", "knee", "knees", "eye", "eyes", "ear", "ears", "spine", "skull", "hip", "hips",
              "shoulder", "shoulders", "arm", "arms", "leg", "legs", "hand", "hands", "foot", "feet", "head", "neck",
              "back", "chest", "liver", "lung", "lungs", "kidney", "kidneys", "heart", "brain", "tibia", "fibula",
              "femur", "ankle", "ankles", "wrist", "wrists", "elbow", "elbows", "vertebra", "vertebrae", "jaw",
              "nose", "rib", "ribs", "pelvis", "abdomen", "stomach", "face", "finger", "fingers", "toe", "toes",
              "thigh", "thighs", "meniscus", "cornea", "retina", "spleen", "bladder", "bowel")
_BODY_TAIL = re.compile(r"[ \t]+(?:of|to|in|on)[ \t]+(?:the|his|her|their|both|a)[ \t]+"
                        r"(?:(?:left|right|upper|lower|inner|outer)[ \t]+)?"
                        rf"(?:{'|'.join(BODY_PARTS)})\b")
#: a signed measure of a condition before it (refraction): "-6.25 of myopia", "+0,5 dioptres of hyperopia"
_MEASURE_BEFORE = re.compile(r"[-+\u2011\u2010–][ \t]?\d{1,3}(?:[.,][ \t]?\d{1,3})?[ \t]*"
                             r"(?:%|degrees?|dioptres?|diopters?)?[ \t]+of[ \t]+$")
#: a lay gloss in brackets after a medical word: "myopia (short-sightedness)"
_GLOSS_AFTER = re.compile(r"[ \t]*\([a-z][a-z\u2011\u2010 -]{2,38}\)")
#: a measure in brackets between a condition and its body part: "degeneration (-8 dioptres) in his left eye"
_MEASURE_BRACKET = re.compile(r"[ \t]*\([^()\n]{1,30}\)")
#: modifiers of a condition (besides adjectives by their ending)
MODIFIERS = frozenset("""
left right lower upper bilateral chronic acute severe mild moderate total partial permanent temporary paranoid
strong progressive degenerative congenital terminal malignant benign mental physical psychotic post-traumatic
heart kidney liver lung lungs brain bone skull spinal spine back neck knee hip shoulder eye eyes ear ears head
blood nerve skin stress anxiety panic eating personality bipolar alcohol drug opiate heroin cocaine
hearing sight visual renal cardiac respiratory cerebral coronary breast prostate bowel stomach leg legs arm arms
hand hands foot feet chest pelvic sacral lumbar cervical thoracic myopic multiple serious grievous
lateral medial anterior posterior dorsal reconstructive depressive manic obsessive-compulsive schizoaffective
neurotic autoimmune
""".split())
#: adjectives by their ending ("calcifying", "degenerative", "psychotic", "lateral") – minus common ones
_ADJECTIVE = re.compile(r"[a-z]+(?:ic|al|ive|oid|ous|ary|ying|ating)$")
NOT_MODIFIERS = frozenset("""
legal criminal national official several general special social political financial personal additional
original final actual usual formal previous various such other its his her their this that the a an
domestic international federal regional municipal judicial procedural constitutional administrative
relative respective medical clinical
""".split())
#: "Crohn's disease", "Down syndrome", "Parkinson's disease": an eponym before a head noun
_EPONYM_BEFORE = re.compile(r"\b[A-Z][a-z]+(?:['’]s)?\s+$")
_EPONYM_HEADS = frozenset({"disease", "syndrome"})
_WORD_BEFORE = re.compile(rf"([A-Za-z][a-z]*(?:{_H}[a-z]+)*)[ \t]+$")
#: "fracture of the left kneecap", "fractures of the 4th sacral vertebra and of the tibia"
_BODY_WORD = rf"(?!(?:that|which|who|was|were|and|or|in|on|at|with|by|from|after|since|when|is|had|has)\b)" \
             rf"(?:\d+(?:st|nd|rd|th)|[a-z]+(?:{_H}[a-z]+)*)"
_FRACTURE = re.compile(rf"(?:fractures?|dislocation|amputation|rupture)\s+of\s+(?:the\s+|his\s+|her\s+|a\s+)?"
                       rf"(?:{_BODY_WORD}\s+){{0,3}}{_BODY_WORD}")
#: "loss of sight", "loss of vision in his left eye", "37 % of loss of sight", "30% disability"
_LOSS_BEFORE = re.compile(r"(?:\b\d+(?:[.,]\d+)?\s*%\s+(?:of\s+)?)?(?:\b(?:partial|total)\s+)?$")
_LOSS = re.compile(r"loss\s+of\s+"
                   r"(?:sight|vision|hearing|memory|consciousness|the\s+use\s+of\s+(?:his|her|the)\s+[a-z]+)"
                   r"(?:\s+in\s+(?:his|her|the|one|both)\s+(?:left\s+|right\s+)?(?:eye|eyes|ear|ears))?")
_PERCENT_BEFORE = re.compile(r"\b\d+(?:[.,]\d+)?\s*$")
_PERCENT_DISABILITY = re.compile(r"%\s+(?:of\s+)?(?:permanent\s+|partial\s+)?(?:disability|invalidity|incapacity)\b")
#: "a woman with a disability", "children with learning disabilities": a person described by a condition
_WITH_CONDITION = re.compile(r"with\s+(?:an?\s+|severe\s+|multiple\s+)?(?P<condition>(?:learning\s+|physical\s+|"
                             r"mental\s+|intellectual\s+)?(?:disability|disabilities|impairments?|handicaps?))\b"
                             r"(?!\s+(?!(?:and|or|in|at|on|who|which|that|since|from|to|for|living|was|is|had|has)\b)[a-z])")
#: spinal segments of a diagnosis ("discopathy at L5-S1", "a hernia at C5–C6"): meaningful only medically
#: (``\b([CTLS])…`` class-first: the word boundary is a look-behind after the letter, see ``bench/README.md``)
_SPINAL_SEGMENT = re.compile(r"([CTLS])(?<!\w[\s\S])(\d{1,2})\s?[-‑–/]\s?([CTLS])(\d{1,2})\b")
#: the vertebrae of each part of the spine: cervical 1–7 (C8 a nerve root), thoracic 1–12, lumbar 1–5 (6), sacral 1–5
_VERTEBRAE = {"C": 8, "T": 12, "L": 6, "S": 5}
#: frames: the condition after them, up to a clause boundary
_FRAME = re.compile(r"(?:diagnosed\s+(?:with|as\s+having)|suffer(?:s|ed|ing)?\s+from|treated\s+for|"
                    r"diagnosis\s+of)\s+(?:an?\s+|the\s+)?")
#: the words each frame starts with (found by ``str.find``, see :func:`_starts`)
_FRAME_TRIGGERS = ("diagnos", "suffer", "treated")
_FRACTURE_TRIGGERS = ("fracture", "dislocation", "amputation", "rupture")
_TRAILING = re.compile(r"(?:\s+(?:of|to|the|a|an|his|her|their))*\s*$")
_CLAUSE = re.compile(r"[^,.;:()\n]{1,80}?(?=\s+(?:and|or|but|which|that|who|in|on|at|since|after|before|for|by|"
                     r"with|was|were|had|has|is|are|when|while|until|from)\b|[,.;:()\n]|$)")


def _medical_word(word: str) -> bool:
    """A lower-case word with a medical ending that is not a common word ("arthrosis", not "diagnosis")."""
    return word not in NOT_MEDICAL and any(word.endswith(s) for s in SUFFIXES) and len(word) >= 5


def _modifier(word: str) -> bool:
    """A lower-case word that may modify a condition: listed, medical, or an adjective by its ending."""
    if not word.islower() or word in NOT_MODIFIERS:
        return False
    if word in MODIFIERS or _medical_word(word):
        return True
    parts = re.split(_H, word)
    return bool(_ADJECTIVE.match(parts[-1])) or len(parts) > 1 and all(
        _ADJECTIVE.match(p) or p in MODIFIERS for p in parts)


def _grow_left(text: str, start: int) -> tuple[int, int]:
    """The start after up to three modifiers before ``start``, and how many were taken."""
    taken = 0
    while taken < 3:
        m = _WORD_BEFORE.search(text, max(0, start - 40), start)
        if m is None or not _modifier(m.group(1)):
            break
        start, taken = m.start(1), taken + 1
    return start, taken


def _starts(text: str, needle: str) -> Iterator[int]:
    """Offsets where ``needle`` starts a word.  ``str.find`` per trigger: one regex alternation of every
    suffix and noun scanned the text ten times slower (the speed bench counts every pass)."""
    pos = text.find(needle)
    while pos >= 0:
        if pos == 0 or not text[pos - 1].isalnum():
            yield pos
        pos = text.find(needle, pos + 1)


def _word_end(text: str, end: int) -> bool:
    return end >= len(text) or not text[end].isalnum()


def _suffix_words(text: str) -> Iterator[tuple[int, int]]:
    """Lower-case words with a medical ending: found at the ending, the word read backwards."""
    for suffix in SUFFIXES:
        pos = text.find(suffix)
        while pos >= 0:
            end = pos + len(suffix)
            if _word_end(text, end):
                start = pos
                while start > 0 and (text[start - 1].isalpha() or text[start - 1] in "-\u2011\u2010"):
                    start -= 1
                word = text[start:end].lstrip("-\u2011\u2010")
                start = end - len(word)
                if word.islower() and _medical_word(word):
                    yield start, end
            pos = text.find(suffix, pos + 1)


def _by_prefix(words: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """The words grouped under the shortest of them each starts with: ``("disorder", ("disorder", "disorders"))``.

    Why: a word starts wherever a longer word that begins with it starts ("disorders"), so one ``str.find``
    scan of the shorter one finds both (``str.startswith`` there); the scans were most of this recognizer's time.
    """
    groups: dict[str, list[str]] = {}
    for word in sorted(words, key=len):
        base = next((b for b in groups if word.startswith(b)), word)
        groups.setdefault(base, []).append(word)
    return [(base, tuple(group)) for base, group in groups.items()]


_HEAD_GROUPS = _by_prefix(HEADS)
_CONDITION_GROUPS = _by_prefix(CONDITION_NOUNS)


def _word_starts(text: str, groups: list[tuple[str, tuple[str, ...]]]) -> Iterator[tuple[str, int]]:
    """(word, offset) of every place where a word of ``groups`` starts a word (:func:`_starts`), by group."""
    for base, words in groups:
        for pos in _starts(text, base):
            for word in words:
                if text.startswith(word, pos):
                    yield word, pos


def health_mentions(text: str) -> list[tuple[int, int]]:  # noqa: C901
    """Character ranges of health-condition mentions, in text order, overlaps joined (:func:`_joined` sorts, so
    the order in which they are found does not matter)."""
    found: list[tuple[int, int]] = []
    for start, end in _suffix_words(text):
        found.append((_grow_left(text, start)[0], end))
    for head, pos in _word_starts(text, _HEAD_GROUPS):
        end = pos + len(head)
        if not _word_end(text, end):
            continue
        # a head noun counts with a listed or medical modifier right before it: "total disability", "heart
        # disease", "post-traumatic stress disorder" – not "a disability pension", "the medical condition"
        before = _WORD_BEFORE.search(text, max(0, pos - 40), pos)
        word = before.group(1) if before is not None else ""
        if word in MODIFIERS or _medical_word(word):
            found.append((_grow_left(text, pos)[0], end))
        elif head in _EPONYM_HEADS and (eponym := _EPONYM_BEFORE.search(text, max(0, pos - 30), pos)):
            found.append((eponym.start(), end))
    found += [m.span() for m in _SPINAL_SEGMENT.finditer(text)
              if 1 <= int(m.group(2)) <= _VERTEBRAE[m.group(1)] and 1 <= int(m.group(4)) <= _VERTEBRAE[m.group(3)]]
    for trigger in _FRACTURE_TRIGGERS:
        found += [m.span() for pos in _starts(text, trigger) if (m := _FRACTURE.match(text, pos))]
    for pos in _starts(text, "loss"):
        if m := _LOSS.match(text, pos):
            before = _LOSS_BEFORE.search(text, max(0, pos - 30), pos)
            found.append((before.start() if before is not None else pos, m.end()))
    for pos in _starts(text, "with"):
        if m := _WITH_CONDITION.match(text, pos):
            found.append(m.span("condition"))
    pos = text.find("%")
    while pos >= 0:
        if (m := _PERCENT_DISABILITY.match(text, pos)) and (before := _PERCENT_BEFORE.search(text, max(0, pos - 12),
                                                                                             pos)):
            found.append((before.start(), m.end()))
        pos = text.find("%", pos + 1)
    found += [(_grow_left(text, pos)[0], pos + len(noun)) for noun, pos in _word_starts(text, _CONDITION_GROUPS)
              if _word_end(text, pos + len(noun))]
    # the body part a condition is of: "lateral calcification of the patella" (not of the frames' clauses)
    found = [_whole_condition(text, start, end) for start, end in found]
    for trigger in _FRAME_TRIGGERS:
        for pos in _starts(text, trigger):
            m = _FRAME.match(text, pos)
            clause = _CLAUSE.match(text, m.end()) if m is not None else None
            if m is None or clause is None:
                continue
            value = _TRAILING.sub("", clause.group())
            words = re.findall(r"[a-z]+(?:[-\u2011\u2010][a-z]+)*", value)
            if any(_medical_word(w) or w in HEADS for w in words):
                found.append((m.end(), m.end() + len(value)))
    return _joined(found)


def _whole_condition(text: str, start: int, end: int) -> tuple[int, int]:
    """A condition with its measure before it, its gloss in brackets and the body part after it: "-6.25 of
    myopia (short-sightedness)", "calcification of the patella", "degeneration (-8 dioptres) in his left eye"."""
    if m := _MEASURE_BEFORE.search(text, max(0, start - 24), start):
        start = m.start()
    if m := _GLOSS_AFTER.match(text, end):
        end = m.end()
    if m := _BODY_TAIL.match(text, end):
        end = m.end()
    elif (bracket := _MEASURE_BRACKET.match(text, end)) and (m := _BODY_TAIL.match(text, bracket.end())):
        end = m.end()
    return start, end


def _joined(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


class HealthConditionRecognizer(Recognizer):
    """Health-condition mentions as SENSITIVE ``HEALTH`` spans (see module docstring)."""

    name = "health"
    priority = PRIORITY_HEALTH

    def __init__(self, language: str = "en") -> None:
        self.language = language

    def __repr__(self) -> str:
        return f"<HealthConditionRecognizer {self.language}>"

    def analyze(self, text: str, doc: Document | None = None) -> list[CharSpan]:
        return [CharSpan(start, end, "HEALTH", Category.SENSITIVE, self.name, SCORE, self.priority)
                for start, end in health_mentions(text)]


def default_recognizers(language: str) -> list[Recognizer]:
    """The health-condition recognizer for the languages it knows (English), else none."""
    return [HealthConditionRecognizer(language)] if language in LANGUAGES else []
