"""Russian: simplemma lemmas, pymorphy3's OpenCorpora tags mapped to UPOS."""

from .. import Language, Tagger

LANGUAGE = Language("ru", "Russian", lemmatizer="ru", tagger=Tagger("pymorphy3", "ru"))
