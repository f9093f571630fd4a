"""Latvian: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("lv", "Latvian", lemmatizer="lv")
