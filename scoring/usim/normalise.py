"""Sentence normalisation before parsing (``USim.normalize_sentence``).

The reference replaces every run of non-word characters (``\\W+``) of the sentence by a
space and lower-cases it, then parses the result. We reuse the scoring core's token-level
spaCy parses instead of parsing a second time, so the same rule is applied per token:
a token keeps its word characters, lower-cased, and a token with none (punctuation) is
no terminal of the graph. Within a token the word characters are joined ("n't" -> "nt",
"U.S." -> "us"), which is what the reference's extra single-letter rejoin
(``(\\s[a-zA-Z])\\s([a-zA-Z]\\s)``) does for such splits; that rejoin across two tokens
(" I 'm " -> "im") is not reproduced, since each token stays one terminal.
"""

from __future__ import annotations

import re

NON_WORD = re.compile(r"\W+")
NON_ALPHANUMERIC = re.compile(r"[\W_]+")


def normalise_token(token: str) -> str:
    """The token's word characters, lower-cased; '' for punctuation."""
    return NON_WORD.sub("", token).lower()


def is_empty(words: list[str]) -> bool:
    """True when nothing alphanumeric is left (``align.regularize_word(s) == ''``).

    The reference tests the raw sentence with ``[\\W_]+`` removed, so an underscore alone
    counts as empty here although normalisation keeps it as a word.
    """
    return not any(NON_ALPHANUMERIC.sub("", word) for word in words)
