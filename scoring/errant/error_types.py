"""Error types that mean something in every language, from what the pipeline knows.

A type is the operation (M missing, R replaced, U unnecessary) and a class, the first
of these that applies (docs/languages.md has examples in Czech, Ukrainian and German):

- ``PUNCT``: every token of the edit is punctuation;
- ``ORTH``: only case or spacing changes (the joined lower-cased sides are equal);
- ``WO``: the same tokens reordered;
- ``MORPH``: one word for another with the same lemma (pipelines with lemmas);
- ``SPELL``: one word for a close spelling of it (ERRANT's threshold: normalised
  Levenshtein similarity of the lower-cased words above 0.55, both alphabetic);
- the universal POS (``NOUN``, ``VERB``, ...) shared by the edit's tokens, or of the
  corrected word (pipelines with a tagger);
- ``OTHER``.

``UNK`` (nothing corrected) and the rule that ignores a case change on the last token
of a multi-token edit are ERRANT's (``errant/en/classifier.py``), so an edit is UNK
exactly when ERRANT says so (UNK edits count only in detection). Each token is read
alone (text, lemma, POS). ERRANT's ``cse`` compares stock ERRANT's own type, which the
``tokens`` pipeline keeps beside this one (:class:`scoring.errant.edits.Edit`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

from .edits import UNK

SPELL_SIMILARITY = 0.55  # errant/en/classifier.py: "str_sim > 0.55 is almost always a true spelling error"
UNTAGGED = {"", "X"}


def is_punct(text: str) -> bool:
    return bool(text) and all(unicodedata.category(ch).startswith("P") for ch in text)


def edit_type(o_toks: Sequence, c_toks: Sequence) -> str:
    """The type of an edit from its original and corrected spaCy tokens."""
    if not o_toks and not c_toks:
        return UNK
    if not o_toks:
        return "M:" + one_sided(c_toks)
    if not c_toks:
        return "U:" + one_sided(o_toks)
    if [t.text for t in o_toks] == [t.text for t in c_toks]:
        return UNK
    if o_toks[-1].lower_ == c_toks[-1].lower_ and (len(o_toks) > 1 or len(c_toks) > 1):
        return edit_type(o_toks[:-1], c_toks[:-1])
    return "R:" + two_sided(o_toks, c_toks)


def shared_pos(toks: Sequence) -> str | None:
    tags = {t.pos_ for t in toks}
    return next(iter(tags)) if len(tags) == 1 and not tags & UNTAGGED else None


def one_sided(toks: Sequence) -> str:
    if all(is_punct(t.text) for t in toks):
        return "PUNCT"
    return shared_pos(toks) or "OTHER"


def two_sided(o_toks: Sequence, c_toks: Sequence) -> str:
    if all(is_punct(t.text) for t in (*o_toks, *c_toks)):
        return "PUNCT"
    if "".join(t.lower_ for t in o_toks) == "".join(t.lower_ for t in c_toks):
        return "ORTH"
    if sorted(t.lower_ for t in o_toks) == sorted(t.lower_ for t in c_toks):
        return "WO"
    if len(o_toks) == len(c_toks) == 1:
        o, c = o_toks[0], c_toks[0]
        if o.lemma_ and o.lemma_.lower() == c.lemma_.lower():
            return "MORPH"
        if (
            o.text.isalpha()
            and c.text.isalpha()
            and Levenshtein.normalized_similarity(o.lower_, c.lower_) > SPELL_SIMILARITY
        ):
            return "SPELL"
        if c.pos_ not in UNTAGGED:
            return c.pos_
    return shared_pos((*o_toks, *c_toks)) or "OTHER"
