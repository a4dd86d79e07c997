"""Closed-class words (pronouns, determiners, conjunctions, prepositions) per language.

Why: a NameTag model used cross-lingually (Czech on Slovak, Swedish …) does not know the target
language's function words and tags them as names when capitalized at a sentence start ("Du",
"Vi", "Ten").  These are general grammar lists, not tuned on any corpus; a span starting with one
of them is not a name.  Lower-case forms; compare with ``word.lower()``.
"""
from __future__ import annotations

FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "sv": frozenset("""
        jag du han hon den det vi ni de mig dig honom henne oss er dem min mitt mina din ditt dina
        hans hennes dess vår vårt våra er ert era deras sin sitt sina denna detta dessa man en ett
        och eller men att som om när då där här så för från till med på av i ur vid hos under över
        efter före mot utan genom mellan inte ej alla varje någon något några ingen inget inga vem
        vad vilken vilket vilka hur varför var vart också även redan nu bara
    """.split()),
    "sk": frozenset("""
        ja ty on ona ono my vy oni ony ma mňa teba ho jeho ju jej nás vás ich im mu môj moja moje
        tvoj tvoja tvoje náš naša naše váš vaša vaše svoj svoja svoje ten tá to tí tie tento táto
        toto títo tieto tamten ktorý ktorá ktoré ktorí kto čo a i aj ale alebo že keď ak lebo pretože
        no však v vo na do z zo k ku s so o od po pri pre za nad pod pred medzi cez bez už ešte len
        nie áno tak aby
        ani iba len podľa jako ako snáď zatiaľ odtiaľ teda potom preto tiež však avšak hoci kde kedy
    """.split()),
    "sl": frozenset("""
        jaz ti on ona ono mi vi oni one me mene te tebe ga njega jo njo nas vas jih njim moj moja
        moje tvoj tvoja tvoje naš naša naše vaš vaša vaše svoj svoja svoje ta to ti te tisti tista
        tisto ki kateri katera katero kdo kaj in ali pa da ko če ker vendar v na do iz k h s z o od
        po pri za nad pod pred med brez že še le ne tudi
    """.split()),
    "pl": frozenset("""
        ja ty on ona ono my wy oni one mnie ciebie go jego ją jej nas was ich im mu mój moja moje
        twój twoja twoje nasz nasza nasze wasz wasza wasze swój swoja swoje ten ta to ci te tamten
        który która które którzy kto co i a oraz ale lub albo że gdy jeśli bo ponieważ jednak w we
        na do z ze k ku s o od po przy dla za nad pod przed między przez bez już jeszcze tylko nie
        tak aby też także
        czym czego czemu jakie jaki jaka jakim jak gdzie kiedy dlaczego czy więc zaś natomiast również
        podczas właśnie aktualnie obecnie jeżeli dziś dzisiaj wczoraj jutro teraz wtedy tam tu tutaj
        potem później wcześniej nawet może
    """.split()),
    "cs": frozenset("""
        já ty on ona ono my vy oni ony mě mne tebe ho jeho ji její nás vás jich jim mu můj moje
        tvůj tvoje náš naše váš vaše svůj svoje ten ta to ti ty tento tato toto tito tyto který
        která které kteří kdo co a i ale nebo že když pokud protože však v ve na do z ze k ke s se
        o od po při pro za nad pod před mezi přes bez už ještě jen ne tak aby také
        ani pouze podle jako snad zatím odtud ostatně tedy potom proto též avšak ačkoli kde kdy
    """.split()),
}


def function_words(language: str) -> frozenset[str]:
    """The closed-class words of ``language`` (empty for languages without a list)."""
    return FUNCTION_WORDS.get(language, frozenset())
