"""``tokens``: the language's rule-based spaCy tokenizer (``spacy.blank(code)``) and nothing
more: no lemma, no POS, no parse (every tag a placeholder ERRANT's rules read as X). ERRANT's alignment and merging
then see only the
words, exactly as MultiGEC-2025 scored (stock ERRANT on a blank pipeline), and every
language has it. spaCy's blank Chinese splits text into characters. Each edit keeps stock
ERRANT's (degenerate) type beside the language-aware one, for ERRANT's ``cse``."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ..nlp import import_spacy
from .base import Pipeline, register

NO_TAG = "XX"  # errant's pos_map reads it as X, as MultiGEC's fork read an empty tag


@register
class TokensPipeline(Pipeline):
    name = "tokens"
    types = "scoring|cse-types:errant"  # shown types are scoring's; cse compares stock ERRANT's

    @classmethod
    def available(cls, language) -> bool:
        return True

    @functools.cached_property
    def nlp(self):
        return import_spacy().blank(self.language.code)

    def parse(self, token_lists: Iterable[Sequence[str]]) -> list:
        """Blank docs whose every tag is :data:`NO_TAG` (nothing else reads it)."""
        import numpy as np
        from spacy.attrs import TAG

        docs = super().parse(token_lists)
        tag = self.nlp.vocab.strings.add(NO_TAG)
        for doc in docs:
            doc.from_array([TAG], np.full((len(doc), 1), tag, dtype=np.uint64))
        return docs

    def errant_type(self, edit) -> str:
        """Stock ERRANT's English rules on the blank tokens: the type MultiGEC-2025's M2 files carry."""
        from errant.en import classifier

        return classifier.classify(edit).type

    def versions(self) -> dict[str, str]:
        return {"spacy": import_spacy().__version__, "tokenizer": f"blank-{self.language.code}"}
