"""German universal POS from HanTa, the Hanover Tagger (LGPL-3.0-or-later, its German
model in the package): a hidden Markov model over the sentence, so a word's tag
depends on its neighbours (``das`` article or pronoun). Its STTS tags are mapped to
UPOS as in UD German, except that auxiliaries and modals are VERB (the type classes
have no AUX, as ERRANT's English ones); pronominal adverbs (``PROAV``: ``darauf``) ADV,
attributive pronouns (``PDAT``, ``PPOSAT``, ...) DET.

HanTa analyses an unknown word's morphemes at a cost that grows with the square of its
length (a 160-letter word takes ~0.8 s), so a word longer than :data:`LONGEST_WORD`
letters is tagged by its last :data:`LONGEST_WORD` letters (a German compound's head
is its last part; a capital kept). A sentence costs at most a few ms per word.
"""

from __future__ import annotations

from collections.abc import Sequence

from .shapes import word_tail

STTS_UPOS = {
    "ADJA": "ADJ",
    "ADJD": "ADJ",
    "ADV": "ADV",
    "APPR": "ADP",
    "APPRART": "ADP",
    "APPO": "ADP",
    "APZR": "ADP",
    "ART": "DET",
    "CARD": "NUM",
    "FM": "X",
    "ITJ": "INTJ",
    "KOUI": "SCONJ",
    "KOUS": "SCONJ",
    "KON": "CCONJ",
    "KOKOM": "CCONJ",
    "NN": "NOUN",
    "NE": "PROPN",
    "PDS": "PRON",
    "PDAT": "DET",
    "PIS": "PRON",
    "PIAT": "DET",
    "PIDAT": "DET",
    "PPER": "PRON",
    "PPOSS": "PRON",
    "PPOSAT": "DET",
    "PRELS": "PRON",
    "PRELAT": "DET",
    "PRF": "PRON",
    "PWS": "PRON",
    "PWAT": "DET",
    "PWAV": "ADV",
    "PAV": "ADV",
    "PROAV": "ADV",
    "PTKZU": "PART",
    "PTKNEG": "PART",
    "PTKVZ": "ADP",
    "PTKANT": "PART",
    "PTKA": "PART",
    "TRUNC": "X",
    "VVFIN": "VERB",
    "VVIMP": "VERB",
    "VVINF": "VERB",
    "VVIZU": "VERB",
    "VVPP": "VERB",
    "VAFIN": "VERB",
    "VAIMP": "VERB",
    "VAINF": "VERB",
    "VAPP": "VERB",
    "VMFIN": "VERB",
    "VMINF": "VERB",
    "VMPP": "VERB",
    "XY": "X",
    "$,": "PUNCT",
    "$.": "PUNCT",
    "$(": "PUNCT",
}
LONGEST_WORD = 24


class HantaTagger:
    """words -> UPOS with HanTa's model (``morphmodel_ger.pgz``: loads once, ~0.5 s, ~60 MB)."""

    def __init__(self, model: str):
        from HanTa import HanoverTagger

        self.tagger = HanoverTagger.HanoverTagger(model)

    def tag(self, words: Sequence[str]) -> list[str]:
        if not words:
            return []
        tagged = self.tagger.tag_sent([bounded(word) for word in words], taglevel=0)
        return [upos_of(tag) for tag in tagged]


def bounded(word: str) -> str:
    return word_tail(word, LONGEST_WORD)


def upos_of(tag: str) -> str:
    """UPOS of an STTS tag (HanTa's ``VA(FIN)`` spelling too); ``X`` for one it lacks."""
    return STTS_UPOS.get(tag.replace("(", "").replace(")", ""), "X")
