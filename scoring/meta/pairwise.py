"""Sentence-level meta-evaluation: do metric and annotators prefer the same output?

SEEDA's definitions (Kobayashi et al., TACL 2024, section 4.1; ``utils/corr_sentence.py``):
every ranking item (one annotator, one source sentence) gives, for each pair of systems
in the system set with different human ranks, the human preference. The metric prefers
the first system of the pair (systems in alphabetical order) when its sentence score is
strictly higher, else the second: a metric tie counts against the first system, as in
SEEDA. Over all such pairs, accuracy = agreements / pairs and Kendall's tau =
(agreements - disagreements) / pairs. Human ties are left out.

Pairs are grouped by sentence, so a bootstrap sample over sentences is a matrix product.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..human.judgments import RankingItem


@dataclass(frozen=True)
class HumanPairs:
    """Every human-ordered pair: sentence (dataset line), systems a < b, +1 if a is better."""

    sentence: np.ndarray
    first: np.ndarray  # column of system a in the score matrix
    second: np.ndarray
    preference: np.ndarray  # +1: humans rank a above b; -1: below


def human_pairs(items: list[RankingItem], systems: list[str], line_of: dict[int, int]) -> HumanPairs:
    """The pairs among ``systems`` (columns, in this order) that humans ordered.

    ``line_of`` maps an item's ``src_id`` to its dataset line; the caller checks it.
    """
    column = {name: k for k, name in enumerate(systems)}
    rows = []
    for item in items:
        ranked = sorted((name, rank) for name, rank in item.ranks if name in column)
        for (a, rank_a), (b, rank_b) in combinations(ranked, 2):
            if rank_a != rank_b:
                rows.append((line_of[item.src_id], column[a], column[b], 1 if rank_a < rank_b else -1))
    array = np.array(rows, dtype=np.int64).reshape(-1, 4)
    return HumanPairs(*array.T)


def agreement_by_sentence(
    pairs: HumanPairs, sentence_scores: np.ndarray, n_sentences: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per dataset line: (agreements, pairs), from ``sentence_scores`` (sentences, systems)."""
    metric = np.where(
        sentence_scores[pairs.sentence, pairs.first] > sentence_scores[pairs.sentence, pairs.second], 1, -1
    )
    agree = np.bincount(pairs.sentence, weights=(metric == pairs.preference).astype(float), minlength=n_sentences)
    total = np.bincount(pairs.sentence, minlength=n_sentences).astype(float)
    return agree, total


def accuracy_and_tau(agree: np.ndarray, total: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Accuracy and Kendall's tau from (possibly resampled) sums of agreements and pairs."""
    with np.errstate(divide="ignore", invalid="ignore"):
        accuracy = np.where(total > 0, agree / total, np.nan)
        tau = np.where(total > 0, (agree - (total - agree)) / total, np.nan)
    return accuracy, tau
