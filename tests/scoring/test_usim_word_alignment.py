"""Word alignment: a minimum-cost assignment of Levenshtein distance plus |i - j| / longer length."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from scoring.usim.align import align_words

WORDS = ["a", "an", "the", "then", "cat", "cats", "sat", "at"]


def cost(longer: list[str], shorter: list[str], rows_of_shorter) -> float:
    """The reference's cost of pairing shorter[j] with longer[rows_of_shorter[j]]."""
    return sum(
        Levenshtein.distance(longer[i], shorter[j]) + abs(i - j) / len(longer) for j, i in enumerate(rows_of_shorter)
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)
)
def test_the_alignment_has_the_minimum_cost(words1, words2):
    aligned = align_words(words1, words2)
    pairs = [(i, int(j)) for i, j in enumerate(aligned) if j >= 0]
    assert len(pairs) == min(len(words1), len(words2))
    assert len({j for _, j in pairs}) == len(pairs)
    if len(words1) >= len(words2):
        longer, shorter, chosen = words1, words2, [i for i, _ in sorted(pairs, key=lambda p: p[1])]
    else:
        longer, shorter, chosen = words2, words1, [j for _, j in pairs]
    best = min(cost(longer, shorter, rows) for rows in permutations(range(len(longer)), len(shorter)))
    assert abs(cost(longer, shorter, chosen) - best) < 1e-9


def test_position_breaks_ties_between_equal_words():
    assert list(align_words("the cat saw the dog".split(), "the cat saw a dog".split())) == [0, 1, 2, 3, 4]
    assert list(align_words("the cat the".split(), "the".split())) == [0, -1, -1]


def test_a_deleted_word_is_left_unaligned():
    assert list(align_words("he did not go home".split(), "he did go home".split())) == [0, 1, -1, 2, 3]
