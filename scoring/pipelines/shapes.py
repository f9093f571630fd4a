"""UPOS from a token's characters alone, for a form no dictionary knows; and the bounded
part of an overlong word that a tagger reads instead of the whole."""

from __future__ import annotations

import unicodedata


def shape_upos(word: str) -> str:
    """Punctuation PUNCT, digits NUM; else ``X`` (untagged)."""
    if word and all(unicodedata.category(ch).startswith("P") for ch in word):
        return "PUNCT"
    if any(ch.isdigit() for ch in word) and all(ch.isdigit() or ch in ".,:-/%" for ch in word):
        return "NUM"
    return "X"


def word_tail(word: str, longest: int) -> str:
    """The word, or its last ``longest`` characters, capitalised when the word was: a
    compound's head is its last part (German, Icelandic), and the taggers' analyses of
    unknown compounds grow faster than linearly with the length."""
    if len(word) <= longest:
        return word
    tail = word[-longest:]
    return tail[:1].upper() + tail[1:] if word[:1].isupper() else tail
