"""``lemmas``: the language's tokens, a lemma per word from simplemma (offline, its
dictionaries bundled; every MultiGEC language), and a universal POS tag per word where
an offline tagger is installed: an installed spaCy model's morphologizer or tagger
(e.g. fr_core_news_sm), pymorphy3's dictionaries (Russian, Ukrainian), BÍN through
islenska (Icelandic) or HanTa (German); :mod:`scoring.pipelines.taggers`. ERRANT's
alignment then weighs lemma and POS as it does in English, and the types gain MORPH
and the POS classes."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ..nlp import import_spacy, parse_tokens
from .base import Pipeline, package_version, register
from .taggers import make_tagger, tagger_version

UNTAGGING_COMPONENTS = ["parser", "senter", "ner", "entity_ruler", "lemmatizer", "trainable_lemmatizer"]


@register
class LemmasPipeline(Pipeline):
    name = "lemmas"

    @classmethod
    def available(cls, language) -> bool:
        return language.lemmatizer is not None

    @functools.cached_property
    def nlp(self):
        spacy = import_spacy()
        tagger = self.language.tagger
        if tagger is not None and tagger.kind == "spacy":
            return spacy.load(tagger.name, exclude=UNTAGGING_COMPONENTS)
        return spacy.blank(self.language.code)

    @functools.cached_property
    def lemma(self):
        import simplemma

        code = self.language.lemmatizer
        return functools.lru_cache(maxsize=1 << 18)(lambda word: simplemma.lemmatize(word, lang=code))

    @functools.cached_property
    def sentence_tagger(self):
        """words -> UPOS for a tagger outside spaCy; None when the docs are tagged by a
        spaCy model (or not at all)."""
        return make_tagger(self.language.tagger)

    def parse(self, token_lists: Iterable[Sequence[str]]) -> list:
        docs = parse_tokens(token_lists, nlp=self.nlp)
        lemma, tag = self.lemma, self.sentence_tagger
        for doc in docs:
            for token in doc:
                token.lemma_ = lemma(token.text)
            if tag is not None:
                for token, upos in zip(doc, tag([token.text for token in doc]), strict=True):
                    token.pos_ = upos
        return docs

    def versions(self) -> dict[str, str]:
        found = {
            "spacy": import_spacy().__version__,
            "tokenizer": f"blank-{self.language.code}",
            "lemmas": f"simplemma-{package_version('simplemma')}",
        }
        tagger = self.language.tagger
        if tagger is not None:
            found["upos"] = tagger_version(tagger)
            if tagger.kind == "spacy":
                found["tokenizer"] = found["upos"]
        return found
