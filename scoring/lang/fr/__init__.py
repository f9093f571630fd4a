"""French: simplemma lemmas with fr_core_news_sm's UPOS; the full pipeline is fr_core_news_sm."""

from .. import Language, Tagger

LANGUAGE = Language(
    "fr", "French", lemmatizer="fr", tagger=Tagger("spacy", "fr_core_news_sm"), models=("fr_core_news_sm",)
)
