"""Icelandic: simplemma lemmas; no offline tagger installed."""
from .. import Language

LANGUAGE = Language("is", "Icelandic", lemmatizer="is")
