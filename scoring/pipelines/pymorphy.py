"""pymorphy3's OpenCorpora tags as universal POS tags (its Russian and Ukrainian
dictionaries). pymorphy3 reads one word at a time, with no context: of the analyses
with the highest score, a closed-class one (preposition, conjunction, pronoun,
particle) is preferred, since the Ukrainian dictionary scores every analysis alike and
lists, e.g., the noun "до" (the note) before the preposition. Participles and gerunds
are VERB, as the UD Russian and Ukrainian treebanks tag them; short adjectives and
comparatives ADJ, pronominal adjectives (``Apro``) DET; predicatives ADV; subordinating
conjunctions SCONJ, the others CCONJ.
"""

from __future__ import annotations

import functools

OPENCORPORA_UPOS = {
    "NOUN": "NOUN",
    "ADJF": "ADJ",
    "ADJS": "ADJ",
    "COMP": "ADJ",
    "VERB": "VERB",
    "INFN": "VERB",
    "PRTF": "VERB",
    "PRTS": "VERB",
    "GRND": "VERB",
    "NUMR": "NUM",
    "ADVB": "ADV",
    "NPRO": "PRON",
    "PRED": "ADV",
    "PREP": "ADP",
    "CONJ": "CCONJ",
    "PRCL": "PART",
    "INTJ": "INTJ",
}
TOKEN_CLASS_UPOS = {"PNCT": "PUNCT", "NUMB": "NUM", "ROMN": "NUM", "LATN": "X", "UNKN": "X"}
PROPER = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"}
CLOSED_FIRST = ("PREP", "CONJ", "NPRO", "PRCL")  # preferred among equally scored analyses, in this order


class PymorphyTagger:
    """word -> UPOS with one pymorphy3 analyser (its dictionary loads once, ~0.5 s)."""

    def __init__(self, lang: str):
        import pymorphy3

        self.analyzer = pymorphy3.MorphAnalyzer(lang=lang)
        self.upos = functools.lru_cache(maxsize=1 << 18)(self._upos)

    def _upos(self, word: str) -> str:
        return upos_of(best_analysis(self.analyzer.parse(word)).tag)


def best_analysis(analyses: list):
    """The top-scored analysis; among ties, the first of a closed class (:data:`CLOSED_FIRST`)."""
    top = [a for a in analyses if a.score == analyses[0].score]
    return min(top, key=lambda a: CLOSED_FIRST.index(a.tag.POS) if a.tag.POS in CLOSED_FIRST else len(CLOSED_FIRST))


def upos_of(tag) -> str:
    if tag.POS is None:
        return next((TOKEN_CLASS_UPOS[g] for g in tag.grammemes if g in TOKEN_CLASS_UPOS), "X")
    if tag.POS == "NOUN" and tag.grammemes & PROPER:
        return "PROPN"
    if tag.POS == "ADJF" and "Apro" in tag.grammemes:
        return "DET"
    if tag.POS == "CONJ" and "subord" in tag.grammemes:
        return "SCONJ"
    return OPENCORPORA_UPOS.get(tag.POS, "X")
