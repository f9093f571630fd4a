"""Estonian: simplemma lemmas; no offline tagger installed."""

from .. import Language

LANGUAGE = Language("et", "Estonian", lemmatizer="et")
