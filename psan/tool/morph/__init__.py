"""Morphological analysis of replaced mentions (case, gender, number, animacy) for surrogate rendering.

Why a package of its own: the surrogate of an inflected name must stand in the original's case,
number and gender.  :mod:`.train` is the recipe that trains a UDPipe 1 tagger on Universal
Dependencies treebanks into the models folder; :mod:`.tagger` runs it (or falls back to rules
when the model is absent); :mod:`.context` adds what the sentence and the document say
(governing prepositions, titles, agreeing words, the entity's other mentions).
"""
