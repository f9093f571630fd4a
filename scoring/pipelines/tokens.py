"""``tokens``: the language's rule-based spaCy tokenizer (``spacy.blank(code)``) and nothing
more: no lemma, no tag, no parse. ERRANT's alignment and merging then see only the
words, exactly as MultiGEC-2025 scored (stock ERRANT on a blank pipeline), and every
language has it. spaCy's blank Chinese splits text into characters."""
from __future__ import annotations

import functools

from ..nlp import import_spacy
from .base import Pipeline, register


@register
class TokensPipeline(Pipeline):
    name = "tokens"

    @classmethod
    def available(cls, language) -> bool:
        return True

    @functools.cached_property
    def nlp(self):
        return import_spacy().blank(self.language.code)

    def versions(self) -> dict[str, str]:
        return {"spacy": import_spacy().__version__, "tokenizer": f"blank-{self.language.code}"}
