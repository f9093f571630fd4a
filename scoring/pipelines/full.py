"""``full``: a spaCy model pipeline (tagger, lemmatizer, dependency parser), the first of
the language's models that is installed. English is ERRANT's home: its full pipeline is
``scoring.nlp``'s model with ERRANT's own classifier, bit for bit as before languages
existed. Other languages' full pipelines are typed by :mod:`scoring.errant.error_types` from the
model's lemmas and UPOS."""

from __future__ import annotations

import functools
import importlib.util

from ..nlp import import_spacy, load_annotator, load_model, versions
from .base import Pipeline, package_version, register


def installed(model: str) -> bool:
    return importlib.util.find_spec(model) is not None


@register
class FullPipeline(Pipeline):
    name = "full"
    has_parser = True

    @classmethod
    def available(cls, language) -> bool:
        return any(installed(m) for m in language.models)

    @property
    def types(self) -> str:  # type: ignore[override]  # the base's class default, here the language's
        return "errant" if self.language.errant_classifier else "scoring"

    @functools.cached_property
    def nlp(self):
        return load_model(self.language.models)

    def classify(self, edit) -> str:
        if self.language.errant_classifier:
            return load_annotator(self.language.models).classify(edit).type
        return super().classify(edit)

    def versions(self) -> dict[str, str]:
        if self.language.errant_classifier:
            return versions(self.language.models)
        meta = self.nlp.meta
        return {
            "spacy": import_spacy().__version__,
            "model": (
                f"{meta.get('lang')}_{meta.get('name')}-{meta.get('version', package_version(meta.get('name', '')))}"
            ),
        }
