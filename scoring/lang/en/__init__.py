"""English: the full pipeline is the spaCy model ERRANT was built for (``GEC_SPACY_MODEL``,
else the en_core_web_sm 3.8.0 re-upload) typed by ERRANT's own English classifier;
simplemma lemmas for the lemmas pipeline (no offline English tagger besides the model)."""

from ...nlp import spacy_model_names
from .. import Language

LANGUAGE = Language("en", "English", lemmatizer="en", models=spacy_model_names(), errant_classifier=True)
