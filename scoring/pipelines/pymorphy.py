"""pymorphy3's OpenCorpora tags as universal POS tags (its Russian and Ukrainian
dictionaries). pymorphy3 reads one word at a time: the first (most probable) analysis
is taken, with no context. Participles and gerunds are VERB, as the UD Russian and
Ukrainian treebanks tag them; short adjectives and comparatives ADJ; predicatives ADV;
pymorphy3 has one conjunction tag, mapped to CCONJ."""
from __future__ import annotations

import functools

OPENCORPORA_UPOS = {
    "NOUN": "NOUN", "ADJF": "ADJ", "ADJS": "ADJ", "COMP": "ADJ", "VERB": "VERB", "INFN": "VERB",
    "PRTF": "VERB", "PRTS": "VERB", "GRND": "VERB", "NUMR": "NUM", "ADVB": "ADV", "NPRO": "PRON",
    "PRED": "ADV", "PREP": "ADP", "CONJ": "CCONJ", "PRCL": "PART", "INTJ": "INTJ",
}
TOKEN_CLASS_UPOS = {"PNCT": "PUNCT", "NUMB": "NUM", "ROMN": "NUM", "LATN": "X", "UNKN": "X"}
PROPER = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"}


class PymorphyTagger:
    """word -> UPOS with one pymorphy3 analyser (its dictionary loads once, ~0.5 s)."""

    def __init__(self, lang: str):
        import pymorphy3

        self.analyzer = pymorphy3.MorphAnalyzer(lang=lang)
        self.upos = functools.lru_cache(maxsize=1 << 18)(self._upos)

    def _upos(self, word: str) -> str:
        tag = self.analyzer.parse(word)[0].tag
        if tag.POS is None:
            return next((TOKEN_CLASS_UPOS[g] for g in tag.grammemes if g in TOKEN_CLASS_UPOS), "X")
        if tag.POS == "NOUN" and tag.grammemes & PROPER:
            return "PROPN"
        return OPENCORPORA_UPOS.get(tag.POS, "X")
