"""Greek: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("el", "Greek", lemmatizer="el")
