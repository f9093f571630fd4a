"""Icelandic universal POS from BÍN, the Database of Icelandic Morphology, through the
``islenska`` package (code MIT, data CC BY-SA 4.0, Árni Magnússon Institute).

BÍN lists every form a word can be and its word class (``ofl``), with no context and no
frequencies, and many frequent forms are several words (``á``: preposition, verb,
noun, adverb). One class is chosen per form by :data:`CLASS_ORDER`, closed classes
first as in :mod:`scoring.pipelines.pymorphy`, then verbs before nouns and adjectives
(``var``, ``gerði``, ``hafa`` are far more often verbs than the nouns they can be); a
few very frequent forms whose usual reading that order misses are fixed in
:data:`USUAL_CLASS`. A capitalised form is also looked up lower-cased (the first word
of a sentence); a capitalised noun that can be a proper name's form is PROPN. A form BÍN does
not know is left to its compounds (islenska splits unknown compounds and analyses the
head; a word longer than :data:`LONGEST_WORD` letters is read by its last ones, since
the splitter's time grows exponentially with a long chain of parts), then to the shape of the token (digits NUM,
punctuation PUNCT), else ``X``,
which the type rules read as untagged.
"""

from __future__ import annotations

import functools

from .shapes import shape_upos, word_tail

# BÍN's word classes (``ofl``) as UPOS. Ordinals (``rt``) are ADJ as in UD Icelandic;
# pronouns (``fn``: demonstrative, indefinite, possessive) DET as pymorphy's ``Apro``.
OFL_UPOS = {
    "kk": "NOUN",
    "kvk": "NOUN",
    "hk": "NOUN",
    "so": "VERB",
    "lo": "ADJ",
    "ao": "ADV",
    "fs": "ADP",
    "nhm": "PART",
    "pfn": "PRON",
    "afn": "PRON",
    "fn": "DET",
    "gr": "DET",
    "to": "NUM",
    "rt": "ADJ",
    "uh": "INTJ",
    "st": "SCONJ",
}
COORDINATING = {"og", "en", "eða", "né", "heldur", "enda", "ellegar", "bæði", "hvorki", "ýmist", "annaðhvort"}
# Most preferred first, for a form with entries in several classes.
CLASS_ORDER = ("nhm", "fs", "pfn", "afn", "fn", "gr", "to", "so", "st", "ao", "rt", "lo", "kk", "kvk", "hk", "uh")
LONGEST_WORD = 40  # islenska's compound splitter grows exponentially on long chains of word parts
USUAL_CLASS = {"sem": "st", "þá": "ao", "svo": "ao", "heldur": "st", "þegar": "st", "eins": "ao", "ef": "st"}


class IslenskaTagger:
    """word -> UPOS from BÍN (islenska's compressed copy is memory-mapped: ~0.1 s, ~30 MB)."""

    def __init__(self):
        from islenska import Bin

        self.bin = Bin()
        self.upos = functools.lru_cache(maxsize=1 << 18)(self._upos)

    def _upos(self, word: str) -> str:
        word = word_tail(word, LONGEST_WORD)
        entries = self.bin.lookup(word)[1]
        lower = word.lower()
        if lower != word:
            entries = entries + self.bin.lookup(lower)[1]
        if not entries:
            return shape_upos(word)
        return upos_of(word, entries)


def upos_of(word: str, entries) -> str:
    """The UPOS of a form from its BÍN entries (each with ``ofl`` and ``ord``, the lemma)."""
    lower = word.lower()
    by_class: dict[str, list] = {}
    for entry in entries:
        if entry.ofl in OFL_UPOS:
            by_class.setdefault(entry.ofl, []).append(entry)
    if not by_class:
        return "X"
    usual = USUAL_CLASS.get(lower)
    ofl = usual if usual in by_class else min(by_class, key=CLASS_ORDER.index)
    if ofl == "st":
        return "CCONJ" if lower in COORDINATING else "SCONJ"
    if ofl in ("kk", "kvk", "hk") and word[:1].isupper() and any(e.ord[:1].isupper() for e in by_class[ofl]):
        return "PROPN"
    return OFL_UPOS[ofl]
