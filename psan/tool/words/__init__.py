"""Word lists every layer above reads: function words, the words joining a name, country names, Faker's
proper-name lists and the optional lexicon.

Why a package of their own: the recognizers, the morphology and the surrogates all read the same lists;
kept here, below all three, none of them has to import another to get them.
"""
