"""Token normalisation: ``\\W+`` removed and lower-cased per token, as ``USim.normalize_sentence``."""

from __future__ import annotations

import pytest

from scoring.usim.normalise import is_empty, normalise_token


@pytest.mark.parametrize(
    "token, expected",
    [
        ("The", "the"),
        ("n't", "nt"),
        ("U.S.", "us"),
        ("e-mail", "email"),
        ("'s", "s"),
        (",", ""),
        ("...", ""),
        ("--", ""),
        ("_", "_"),
        ("Café", "café"),
        ("3.5", "35"),
    ],
)
def test_a_token_keeps_its_word_characters_lower_cased(token, expected):
    assert normalise_token(token) == expected


@pytest.mark.parametrize(
    "words, empty", [([], True), (["_"], True), (["_", "__"], True), (["_a"], False), (["1"], False)]
)
def test_a_sentence_is_empty_without_letters_or_digits(words, empty):
    assert is_empty(words) is empty
