"""Czech: simplemma lemmas; no offline tagger installed."""
from .. import Language

LANGUAGE = Language("cs", "Czech", lemmatizer="cs")
