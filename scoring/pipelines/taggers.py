"""The offline taggers the ``lemmas`` pipeline reads universal POS from, by
:class:`~scoring.lang.Tagger` kind (docs/languages.md names each one's licence).

Each is made once per process, the first time a sentence needs it, and tags a whole
sentence (``words -> UPOS per word``): the dictionary taggers read each word alone
(pymorphy3: Russian, Ukrainian; islenska's BÍN: Icelandic), HanTa reads the sentence
(German), and Czech has word lists and rules over simplemma's dictionary. A spaCy model's tags (``kind="spacy"``) come
with its docs instead and are
not made here. :func:`tagger_version` is the tagger's part of the pipeline signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .base import package_version

SentenceTagger = Callable[[Sequence[str]], list[str]]


def per_word(upos: Callable[[str], str]) -> SentenceTagger:
    return lambda words: [upos(word) for word in words]


def _pymorphy3(name: str) -> SentenceTagger:
    from .pymorphy import PymorphyTagger

    return per_word(PymorphyTagger(name).upos)


def _islenska(name: str) -> SentenceTagger:
    from .islenska import IslenskaTagger

    return per_word(IslenskaTagger().upos)


def _czech_rules(name: str) -> SentenceTagger:
    from .czech import CzechTagger

    return per_word(CzechTagger().upos)


def _hanta(name: str) -> SentenceTagger:
    from .hanta import HantaTagger

    return HantaTagger(name).tag


MAKERS: dict[str, Callable[[str], SentenceTagger]] = {
    "pymorphy3": _pymorphy3,
    "islenska": _islenska,
    "hanta": _hanta,
    "czech-rules": _czech_rules,
}


def make_tagger(tagger) -> SentenceTagger | None:
    """The sentence tagger of a :class:`~scoring.lang.Tagger`; None for a spaCy model's."""
    maker = MAKERS.get(tagger.kind) if tagger is not None else None
    return maker(tagger.name) if maker is not None else None


def tagger_version(tagger) -> str:
    """``<package>-<version>`` and its data's version, as the signature names them."""
    if tagger.kind == "spacy":
        return f"{tagger.name}-{package_version(tagger.name)}"
    if tagger.kind == "pymorphy3":
        return (
            f"pymorphy3-{package_version('pymorphy3')}+dicts-{tagger.name}-"
            f"{package_version(f'pymorphy3-dicts-{tagger.name}')}"
        )
    if tagger.kind == "islenska":
        return f"islenska-{package_version('islenska')}+bin-{package_version('islenska-data')}"
    if tagger.kind == "hanta":
        return f"hanta-{package_version('HanTa')}+{tagger.name}"
    if tagger.kind == "czech-rules":
        from .czech import RULES_VERSION

        return f"czech-rules-{RULES_VERSION}+simplemma-{package_version('simplemma')}"
    raise ValueError(f"unknown tagger kind {tagger.kind!r}")
