"""Swedish: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("sv", "Swedish", lemmatizer="sv")
