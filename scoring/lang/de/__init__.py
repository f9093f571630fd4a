"""German: simplemma lemmas, HanTa's STTS tags (its German model) mapped to UPOS."""

from .. import Language, Tagger

LANGUAGE = Language("de", "German", lemmatizer="de", tagger=Tagger("hanta", "morphmodel_ger.pgz"))
