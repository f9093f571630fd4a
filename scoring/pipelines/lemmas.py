"""``lemmas``: the language's tokens, a lemma per word from simplemma (offline, its
dictionaries bundled; every MultiGEC language), and a universal POS tag per word where
an offline tagger is installed: an installed spaCy model's morphologizer or tagger
(e.g. fr_core_news_sm), or pymorphy3's dictionaries (Russian, Ukrainian). ERRANT's
alignment then weighs lemma and POS as it does in English, and the types gain MORPH
and the POS classes."""
from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ..nlp import import_spacy, parse_tokens
from .base import Pipeline, package_version, register

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
    def word_tagger(self):
        """word -> UPOS for a tagger that reads words alone; None when the docs are tagged
        by a spaCy model (or not at all)."""
        tagger = self.language.tagger
        if tagger is None or tagger.kind != "pymorphy3":
            return None
        from .pymorphy import PymorphyTagger

        return PymorphyTagger(tagger.name).upos

    def parse(self, token_lists: Iterable[Sequence[str]]) -> list:
        docs = parse_tokens(token_lists, nlp=self.nlp)
        lemma, upos = self.lemma, self.word_tagger
        for doc in docs:
            for token in doc:
                token.lemma_ = lemma(token.text)
                if upos is not None:
                    token.pos_ = upos(token.text)
        return docs

    def versions(self) -> dict[str, str]:
        found = {"spacy": import_spacy().__version__, "tokenizer": f"blank-{self.language.code}", "lemmas": f"simplemma-{package_version('simplemma')}"}
        tagger = self.language.tagger
        if tagger is not None and tagger.kind == "spacy":
            found["tokenizer"] = found["upos"] = f"{tagger.name}-{package_version(tagger.name)}"
        elif tagger is not None:
            found["upos"] = f"pymorphy3-{package_version('pymorphy3')}+dicts-{tagger.name}-{package_version(f'pymorphy3-dicts-{tagger.name}')}"
        return found
