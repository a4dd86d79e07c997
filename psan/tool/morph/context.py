"""What the words before a mention say about its case and gender: governing prepositions and titles.

Why: a tagger trained on general text sees few names; the preposition right before a name fixes its
case in most sentences ("podle Petra Placáka" is a genitive whatever the tagger thinks), and a title
fixes gender and often case ("panem" instrumental masculine, "paní" feminine, "Mr" male).
Each preposition lists the cases it governs, the most frequent with a name first.
"""
from __future__ import annotations

_CS = {
    **dict.fromkeys(("bez", "blízko", "do", "kolem", "kromě", "od", "ode", "podle", "podél", "u", "uprostřed",
                     "vedle", "z", "ze", "během", "místo", "pomocí", "prostřednictvím", "ohledně", "poblíž",
                     "okolo", "zpoza", "zpod", "směrem", "ve prospěch", "vyjma", "zevnitř"), ("Gen",)),
    **dict.fromkeys(("k", "ke", "ku", "kvůli", "díky", "vůči", "proti", "naproti", "oproti", "navzdory"), ("Dat",)),
    **dict.fromkeys(("pro", "přes", "skrz", "mimo"), ("Acc",)),
    "o": ("Loc", "Acc"), "na": ("Loc", "Acc"), "v": ("Loc", "Acc"), "ve": ("Loc", "Acc"), "po": ("Loc", "Acc"),
    "při": ("Loc",),
    "jménem": ("Gen", "Nom"),  # "jménem firmy" (on behalf of), "pes jménem Max" (named): a nominative name
    **dict.fromkeys(("s", "se"), ("Ins", "Gen")),
    **dict.fromkeys(("za", "před", "nad", "pod", "mezi", "přede", "nade", "pode"), ("Ins", "Acc")),
}
_SK = {
    **dict.fromkeys(("bez", "do", "od", "odo", "u", "z", "zo", "podľa", "vedľa", "okolo", "pozdĺž", "blízko",
                     "počas", "namiesto", "pomocou", "prostredníctvom", "spred", "spoza", "okrem", "zoči-voči",
                     "uprostred", "vrátane", "zo strany", "smerom"), ("Gen",)),
    **dict.fromkeys(("k", "ku", "proti", "oproti", "vďaka", "kvôli", "voči", "napriek", "naproti"), ("Dat",)),
    **dict.fromkeys(("pre", "cez", "mimo"), ("Acc",)),
    "o": ("Loc", "Acc"), "na": ("Loc", "Acc"), "v": ("Loc", "Acc"), "vo": ("Loc", "Acc"), "po": ("Loc", "Acc"),
    "pri": ("Loc",),
    **dict.fromkeys(("s", "so"), ("Ins",)),
    **dict.fromkeys(("za", "pred", "nad", "pod", "medzi", "predo", "nado", "podo"), ("Ins", "Acc")),
}
_PL = {
    **dict.fromkeys(("bez", "dla", "do", "od", "ode", "u", "spod", "sprzed", "zza", "obok", "koło", "około",
                     "podczas", "według", "wśród", "wobec", "zamiast", "oprócz", "dookoła", "naprzeciwko",
                     "spośród", "ze strony", "od strony", "wokół", "prócz", "mimo"), ("Gen",)),
    **dict.fromkeys(("dzięki", "ku", "przeciw", "przeciwko", "wbrew", "naprzeciw"), ("Dat",)),
    **dict.fromkeys(("przez", "poprzez"), ("Acc",)),
    "w": ("Loc", "Acc"), "we": ("Loc", "Acc"), "na": ("Loc", "Acc"), "o": ("Loc", "Acc"), "po": ("Loc", "Acc"),
    "przy": ("Loc",),
    **dict.fromkeys(("z", "ze"), ("Ins", "Gen")),
    **dict.fromkeys(("za", "przed", "nad", "pod", "między", "pomiędzy", "przede", "nade", "pode"), ("Ins", "Acc")),
}
_SL = {
    **dict.fromkeys(("iz", "od", "do", "brez", "zaradi", "blizu", "poleg", "sredi", "izpod", "izza", "namesto",
                     "okrog", "zraven", "razen", "vrh", "konec", "onkraj", "glede"), ("Gen",)),
    **dict.fromkeys(("k", "h", "proti", "kljub", "nasproti"), ("Dat",)),
    **dict.fromkeys(("skozi", "čez", "zoper"), ("Acc",)),
    "v": ("Loc", "Acc"), "na": ("Loc", "Acc"), "o": ("Loc",), "po": ("Loc", "Acc"), "pri": ("Loc",),
    **dict.fromkeys(("z", "s"), ("Ins", "Gen")),
    **dict.fromkeys(("za", "pred", "nad", "pod", "med"), ("Ins", "Acc")),
}
PREPOSITIONS: dict[str, dict[str, tuple[str, ...]]] = {"cs": _CS, "sk": _SK, "pl": _PL, "sl": _SL}

#: beginnings of role nouns a person's name stands in apposition to, agreeing in case ("bratra Kozáka")
ROLE_NOUNS = ("prezident", "prezydent", "premiér", "premier", "minist", "kráľ", "král", "król", "papež", "pápež",
              "papież", "cisár", "císař", "generál", "generał", "předsed", "predsed", "poslan", "posł", "kancl",
              "spisovatel", "trenér", "tréner", "trener", "koleg", "doktor", "profesor", "biskup", "kardinál",
              "patriarch", "starost", "primátor", "hejtman", "guvernér", "soudc", "sudc", "sędzi", "vůdc", "vodc",
              "šéf", "ředitel", "riaditeľ", "dyrektor", "prezes", "redaktor", "kapitán", "kapitan", "bratr",
              "brat", "sestr", "siostr", "syn", "dcer", "otc", "otec", "matk", "manžel", "manžel", "žen", "muž",
              "herc", "herec", "zpěvák", "spevák", "režisér", "senátor", "senator", "místopředsed", "podpredsed",
              "předák", "mistr", "majst", "velvysl", "veľvysl", "ambasador", "komisař", "komisár", "komisarz",
              "tajemník", "tajomník", "sekretarz", "inženýr", "inžinier", "architekt", "advokát", "adwokat",
              "soudruh", "soudružk", "kněz", "kňaz", "księ", "farář", "farár", "burmistrz", "rzeczni", "selekcjoner",
              "adwokat", "demokrat", "republikan", "wojewod", "marszał", "prokurator", "świad", "reverend",
              "rzecznik", "mluvčí", "hovorca", "ksiądz", "bloger", "ojciec", "świę", "posłanka", "wicepremier",
              "przewodnicząc", "kierowni", "komisař", "arcibiskup", "vojvod", "vévod", "velitel", "veliteľ", "gróf",
              "opát", "princ", "kníže", "knieža")

#: beginnings of nouns a place name stands in apposition to ("okrese Pardubice", "rieku Araxes", "ostrov
#: Cyprus"): the name agrees with the noun or stays in the nominative, it is not its possessor
PLACE_NOUNS = ("měst", "mest", "obec", "obc", "okres", "kraj", "ostrov", "řek", "riek", "jezer", "jazer", "stát",
               "štát", "ulic", "ulic", "náměst", "námest", "planin", "provinci", "region", "oblast", "hrad",
               "zámk", "zámek", "zámok", "vesnic", "dedin", "pohoř", "pohor", "údol", "poloostrov", "polostrov",
               "městys", "čtvrt", "štvrť", "osad", "letiště", "letisk", "přístav", "prístav", "nádraž", "stanic",
               "republik", "knížectv", "kniežatstv", "královstv", "kráľovstv", "emirát", "souostroví", "súostrov",
               "miast", "wsi", "wieś", "gmin", "powiat", "rzek", "wysp", "jezior", "mesto", "otok", "reka")

#: title → (gender 'm'/'f', cases it can stand in; () = any)
_TITLES_COMMON = {"mr": ("m", ()), "mrs": ("f", ()), "ms": ("f", ()), "miss": ("f", ()), "sir": ("m", ()),
                  "lord": ("m", ()), "lady": ("f", ()), "herr": ("m", ()), "frau": ("f", ()),
                  "monsieur": ("m", ()), "madame": ("f", ()), "señor": ("m", ()), "señora": ("f", ())}
TITLES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "cs": {**_TITLES_COMMON, "pan": ("m", ("Nom",)), "pana": ("m", ("Gen", "Acc")), "panu": ("m", ("Dat", "Loc")),
           "pane": ("m", ("Voc",)), "panem": ("m", ("Ins",)), "paní": ("f", ()), "slečna": ("f", ("Nom",)),
           "slečny": ("f", ("Gen",)), "slečně": ("f", ("Dat", "Loc")), "slečnu": ("f", ("Acc",)),
           "slečnou": ("f", ("Ins",)), "kolega": ("m", ("Nom",)), "kolegy": ("m", ("Gen",)),
           "kolegovi": ("m", ("Dat", "Loc")), "kolegou": ("m", ("Ins",)), "kolegyně": ("f", ()),
           "kolegyni": ("f", ("Dat", "Acc", "Loc")), "kolegyní": ("f", ("Ins",))},
    "sk": {**_TITLES_COMMON, "pán": ("m", ("Nom",)), "pána": ("m", ("Gen", "Acc")), "pánovi": ("m", ("Dat", "Loc")),
           "pánom": ("m", ("Ins",)), "pani": ("f", ()), "panej": ("f", ("Gen", "Dat", "Loc")), "paniu": ("f", ("Acc",)),
           "paňou": ("f", ("Ins",)), "slečna": ("f", ("Nom",))},
    "pl": {**_TITLES_COMMON, "pan": ("m", ("Nom",)), "pana": ("m", ("Gen", "Acc")), "panu": ("m", ("Dat", "Loc")),
           "panem": ("m", ("Ins",)), "panie": ("m", ("Voc",)), "pani": ("f", ()), "panią": ("f", ("Acc", "Ins")),
           "panna": ("f", ("Nom",)), "prezydent": ("", ("Nom",)), "prezydenta": ("m", ("Gen", "Acc")),
           "prezydentem": ("m", ("Ins",)), "premier": ("", ("Nom",)), "premiera": ("m", ("Gen", "Acc")),
           "premierem": ("m", ("Ins",)), "ministra": ("m", ("Gen", "Acc")), "ministrem": ("m", ("Ins",)),
           "posła": ("m", ("Gen", "Acc")), "posłem": ("m", ("Ins",)), "księdza": ("m", ("Gen", "Acc")),
           "generała": ("m", ("Gen", "Acc")), "generałem": ("m", ("Ins",))},
    "sl": {**_TITLES_COMMON, "gospod": ("m", ("Nom",)), "gospoda": ("m", ("Gen", "Acc")),
           "gospodu": ("m", ("Dat", "Loc")), "gospodom": ("m", ("Ins",)), "gospa": ("f", ("Nom",)),
           "gospe": ("f", ("Gen",)), "gospo": ("f", ("Acc", "Ins")),
           "gospodična": ("f", ("Nom",))},
}


def preposition_cases(word: str, language: str) -> tuple[str, ...]:
    """The cases a preposition governs, best first (``()`` for a word that is no preposition)."""
    return PREPOSITIONS.get(language, {}).get(word.casefold(), ())


def title_of(word: str, language: str) -> tuple[str, tuple[str, ...]] | None:
    """(gender, cases) a title word gives the name after it, or ``None``."""
    w = word.casefold().rstrip(".")
    table = TITLES.get(language, _TITLES_COMMON)
    return table.get(w) or _TITLES_COMMON.get(w)


#: the preposition's vocalized form before a word starting with the given consonants (see :func:`vocalize`)
VOCALIZABLE: dict[str, dict[str, str]] = {
    "cs": {"s": "se", "z": "ze", "v": "ve", "k": "ke"},
    "sk": {"s": "so", "z": "zo", "v": "vo", "k": "ku"},
    "pl": {"w": "we", "z": "ze"},
}


def vocalize(preposition: str, next_word: str, language: str) -> str:
    """The form of a one-consonant preposition before ``next_word`` ("s Samuelem" → "se Samuelem").

    Czech/Slovak/Polish add a vowel when the next word starts with the preposition's own consonant
    (or its voiced/voiceless pair: s/z, v/f, k/g), Czech "v" also before a cluster opened by a sibilant,
    "m" or "l" ("ve Staňkově"); Polish only before such a consonant cluster.  Clusters such as "se mnou"
    are left out (rare with names).  The capitalisation of the preposition is kept.
    """
    table = VOCALIZABLE.get(language)
    if not table or not next_word:
        return preposition
    low = preposition.casefold()
    bare = {v: k for k, v in table.items()}.get(low, low)
    if bare not in table:
        return preposition
    first, second = next_word[:1].casefold(), next_word[1:2].casefold()
    pairs = {"s": "sšzž", "z": "zžsš", "v": "vfw", "k": "kg", "w": "wf"}
    needs = first in pairs.get(bare, bare)
    if language == "cs" and bare == "v" and first in "sšzžml" and second and second not in "aáeéěiíoóuúůyý":
        needs = True  # "ve Staňkově", "ve Zlíně", "ve Lvově" (a sibilant or sonorant cluster) but "v Brně"
    if language == "pl":  # "we Wrocławiu" but "w Warszawie", "ze Szczecina" but "z Sopotu"
        first_set = "wf" if bare == "w" else "szśźż"
        needs = first in first_set and second != "" and second not in "aąeęioóuy"
    form = table[bare] if needs else bare
    return form.capitalize() if preposition[:1].isupper() else form
