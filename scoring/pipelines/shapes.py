"""UPOS from a token's characters alone, for a form no dictionary knows."""
from __future__ import annotations

import unicodedata


def shape_upos(word: str) -> str:
    """Punctuation PUNCT, digits NUM; else ``X`` (untagged)."""
    if word and all(unicodedata.category(ch).startswith("P") for ch in word):
        return "PUNCT"
    if any(ch.isdigit() for ch in word) and all(ch.isdigit() or ch in ".,:-/%" for ch in word):
        return "NUM"
    return "X"
