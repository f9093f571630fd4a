"""German: simplemma lemmas; no offline tagger installed."""
from .. import Language

LANGUAGE = Language("de", "German", lemmatizer="de")
