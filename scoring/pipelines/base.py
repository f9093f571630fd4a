"""The text pipeline: what turns a language's tokens into the spaCy docs ERRANT aligns.

A pipeline is named (``tokens``, ``lemmas``, ``full``), registered the way metrics are,
and made for one :class:`~scoring.lang.Language`. It tokenizes raw lines, parses
pre-tokenised sentences in batches (every annotation it knows on the docs: lemma, UPOS,
dependencies), types ERRANT's edits, and names itself, its data and their versions in
the signature. Nothing is loaded until a sentence needs it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from importlib import metadata
from typing import ClassVar

from ..errant.error_types import edit_type
from ..lang import Language
from ..nlp import import_spacy, parse_tokens

PIPELINES: dict[str, type[Pipeline]] = {}


def register(cls: type[Pipeline]) -> type[Pipeline]:
    PIPELINES[cls.name] = cls
    return cls


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


class Pipeline:
    name: ClassVar[str]
    has_parser: ClassVar[bool] = False  # dependency relations (USIM's graphs need them)
    types: ClassVar[str] = "scoring"  # whose error-type rules: scoring.errant.error_types, or ERRANT's

    def __init__(self, language: Language):
        self.language = language

    @classmethod
    def available(cls, language: Language) -> bool:
        raise NotImplementedError

    @functools.cached_property
    def nlp(self):
        """The spaCy ``Language`` whose vocab the docs share."""
        raise NotImplementedError

    def tokenize(self, lines: Iterable[str]) -> list[list[str]]:
        """The language's own tokenization of raw text lines (``--tokenize``)."""
        return [[token.text for token in doc] for doc in self.nlp.tokenizer.pipe(lines)]

    def parse(self, token_lists: Iterable[Sequence[str]]) -> list:
        """Docs of pre-tokenised sentences, in batches, with what this pipeline annotates."""
        return parse_tokens(token_lists, nlp=self.nlp)

    def classify(self, edit) -> str:
        """The type of an ERRANT ``Edit`` (with its ``o_toks`` and ``c_toks``)."""
        return edit_type(edit.o_toks, edit.c_toks)

    def errant_type(self, edit) -> str:
        """Stock ERRANT's type of the edit where :meth:`classify` gives another ("": the same
        or none to keep)."""
        return ""

    def versions(self) -> dict[str, str]:
        """What the parses and types depend on, in signature order."""
        return {"spacy": import_spacy().__version__}

    def signature(self) -> str:
        parts = [f"{key}:{value}" for key, value in self.versions().items()]
        parts += [f"lang:{self.language.code}", f"pipeline:{self.name}", f"types:{self.types}"]
        return "|".join(parts)
