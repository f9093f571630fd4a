"""Deleting the second half of every sentence loses meaning, and USIM sees it."""

from __future__ import annotations

from scoring import hypothesis_from_lines, score_systems


def test_deleting_half_of_every_sentence_scores_clearly_lower(seeda_subset):
    halves = [" ".join(tokens[: len(tokens) // 2]) for tokens in seeda_subset.sources]
    truncated = hypothesis_from_lines(seeda_subset, halves, "truncated")
    scores = score_systems(seeda_subset, [truncated], ["usim"]).systems["truncated"]["usim"]
    assert scores["f"] < 0.7
    assert scores["r"] < scores["p"]  # what is left is mostly faithful; what is gone is lost
