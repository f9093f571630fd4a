"""Icelandic: simplemma lemmas, BÍN's word classes (through islenska) mapped to UPOS."""

from .. import Language, Tagger

LANGUAGE = Language("is", "Icelandic", lemmatizer="is", tagger=Tagger("islenska", "bin"))
