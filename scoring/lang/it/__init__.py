"""Italian: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("it", "Italian", lemmatizer="it")
