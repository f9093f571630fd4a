"""Ukrainian: simplemma lemmas, pymorphy3's tags (its Ukrainian dictionary) mapped to UPOS."""

from .. import Language, Tagger

LANGUAGE = Language("uk", "Ukrainian", lemmatizer="uk", tagger=Tagger("pymorphy3", "uk"))
