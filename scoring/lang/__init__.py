"""Languages as folders (the shape of spaCy's ``spacy/lang/<code>/``).

Each sub-package ``scoring/lang/<code>/`` holds one language's data: its name, the
lemmatiser's code for it, the offline tagger that gives its universal POS tags, and
the spaCy models of its ``full`` pipeline. Adding a language is adding a folder with
a ``LANGUAGE``; the pipelines read these fields and never name a language themselves.
Nothing here imports spaCy or any model: a folder is a few strings.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class Tagger:
    """Where a language's universal POS tags come from, offline.

    ``kind`` is ``"spacy"`` (``name`` is an installed spaCy model whose morphologizer or
    tagger sets UPOS), ``"pymorphy3"`` (``name`` is pymorphy3's dictionary language; its
    OpenCorpora tags are mapped to UPOS by :mod:`scoring.pipelines.pymorphy`),
    ``"islenska"`` (BÍN's word classes, :mod:`scoring.pipelines.islenska`) or ``"hanta"``
    (``name`` is HanTa's model file; :mod:`scoring.pipelines.hanta`).
    """

    kind: str
    name: str


@dataclass(frozen=True)
class Language:
    """One language's data. ``code`` is ISO 639-1 and spaCy's blank-pipeline code."""

    code: str
    name: str
    lemmatizer: str | None = None  # simplemma's language code; None: no ``lemmas`` pipeline
    tagger: Tagger | None = None  # universal POS for the ``lemmas`` pipeline
    models: tuple[str, ...] = ()  # spaCy models of the ``full`` pipeline, first installed wins
    errant_classifier: bool = False  # the full pipeline's types are ERRANT's own (its rules are English)


class UnknownLanguage(ValueError):
    """A language code with no folder; the message lists the supported ones."""

    def __init__(self, code: str):
        super().__init__(f"unknown language {code!r}; supported: {', '.join(codes())}")


@functools.cache
def codes() -> tuple[str, ...]:
    """Every language with a folder, sorted."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


@functools.cache
def language(code: str) -> Language:
    """The ``LANGUAGE`` of ``scoring/lang/<code>/``; :class:`UnknownLanguage` otherwise."""
    if code not in codes():
        raise UnknownLanguage(code)
    return importlib.import_module(f"{__name__}.{code}").LANGUAGE
