"""Morphology: one home for the analysis, the declension, the lemmatization and the name lists.

Why a package of its own: the surrogate of an inflected name must stand in the original's case,
number and gender, and the rules of a language (its paradigms, its lemmas, its known names) must be
written once, not once per caller.

* **analysis** — :mod:`.analysis` reads each replaced mention's case, number and gender from its form and
  its sentence (paradigms, :mod:`.context`: prepositions and titles, :mod:`.valency`, the UDPipe tagger of
  :mod:`.tagger` trained by :mod:`.train`, the learned reader :mod:`.namecase`);
* **declension** — :mod:`.declension`: the paradigms of Czech, Slovak and Slovenian names and their
  inverse, Polish through Morfeusz2;
* **lemmatization** — :mod:`.lemma`: the lemmatizers of LEMMA rules and entity linking;
* **name lists** — :mod:`.namelists`: the known names and places, their genders and the surrogate pools;
  :mod:`.wordlist` says whether a generated form is a real word.
"""
