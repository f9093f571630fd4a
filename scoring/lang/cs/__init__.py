"""Czech: simplemma lemmas; UPOS from word lists and rules over simplemma's dictionary
(no openly licensed Czech tagger exists on PyPI)."""

from .. import Language, Tagger

LANGUAGE = Language("cs", "Czech", lemmatizer="cs", tagger=Tagger("czech-rules", "cs"))
