"""Slovene: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("sl", "Slovene", lemmatizer="sl")
