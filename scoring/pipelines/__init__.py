"""The registry of text pipelines, and what a language has (docs/languages.md).

``tokens`` (every language), ``lemmas`` (a lemmatiser, and UPOS where an offline tagger
exists) and ``full`` (an installed spaCy model), richest last. A dataset names its
language and pipeline; everything that parses or types its sentences asks
:func:`get_pipeline` for the object, never for a language by name.
"""

from __future__ import annotations

import functools

from ..lang import UnknownLanguage, codes, language
from . import full, lemmas, tokens  # noqa: F401  (each registers itself)
from .base import PIPELINES, Pipeline

ORDER = ("tokens", "lemmas", "full")  # poorest to richest


class UnknownPipeline(ValueError):
    """A pipeline the language does not have; the message lists the ones it has."""

    def __init__(self, lang: str, name: str):
        super().__init__(
            f"pipeline {name!r} is not available for {lang!r}; available: {', '.join(available_pipelines(lang))}"
        )


def languages() -> list[str]:
    """Every supported language code (ISO 639-1)."""
    return list(codes())


def available_pipelines(lang: str) -> list[str]:
    """The pipelines ``lang`` can run here, poorest to richest."""
    found = language(lang)
    return [name for name in ORDER if PIPELINES[name].available(found)]


def default_pipeline(lang: str) -> str:
    """The richest pipeline available for ``lang`` (English: ``full``, today's ERRANT)."""
    return available_pipelines(lang)[-1]


def get_pipeline(lang: str = "en", name: str | None = None) -> Pipeline:
    """The pipeline object (one per process and language); raises UnknownLanguage or
    UnknownPipeline."""
    return _made(lang, name or default_pipeline(lang))


@functools.cache
def _made(lang: str, name: str) -> Pipeline:
    if name not in available_pipelines(lang):
        raise UnknownPipeline(lang, name)
    return PIPELINES[name](language(lang))


def pipeline_signature(lang: str, pipeline: str | None = None) -> str:
    """``spacy:<v>|...|lang:<code>|pipeline:<name>|types:<rules>``: the pipeline, its data and versions."""
    return get_pipeline(lang, pipeline).signature()


__all__ = [
    "Pipeline",
    "UnknownLanguage",
    "UnknownPipeline",
    "available_pipelines",
    "default_pipeline",
    "get_pipeline",
    "languages",
    "pipeline_signature",
]
