"""95% rank ranges by bootstrap resampling of the pairwise comparisons, and clusters.

As WMT13-16 and Grundkiewicz et al. (EMNLP 2015) did: draw as many comparisons as there
are, with replacement, rank the systems on each sample, and keep the middle 95% of each
system's ranks (drop ceil(2.5%) of the samples at each end). A sample is a multinomial
draw of the counts of the distinct (pair, outcome) comparisons, which is the same
distribution as drawing comparisons one by one, so 1,000 samples are one matrix product.

Clusters (WMT's ``cluster.py`` by rank): going down the ranking, a new cluster starts
before a system when every system above it has a worst rank better than the best rank of
it and of every system below it; a cluster is a group no later evidence splits.
"""

from __future__ import annotations

import math

import numpy as np

from .comparisons import Comparisons
from .expected_wins import expected_wins_of, win_counts

CONFIDENCE = 0.95
BATCH_CELLS = 4_000_000  # samples x systems^2 held at once (32 MB of win counts)


def ranks_of(scores: np.ndarray) -> np.ndarray:
    """(batch, n) rank of every system, 1 + the number of systems scoring strictly higher."""
    scores = np.atleast_2d(scores)
    return 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=-1)


def bootstrap_expected_wins(comparisons: Comparisons, samples: int, seed: int) -> np.ndarray:
    """(samples, n) Expected Wins on resampled comparisons, drawn in batches so memory
    stays bounded however many systems there are. The meta-evaluation pairs them with
    resampled sentences, so that its intervals resample the judgments too."""
    codes, counts = comparisons.categories()
    n = len(comparisons.systems)
    rng = np.random.default_rng(seed)
    drawn = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=samples)
    batch = max(1, BATCH_CELLS // max(n * n, 1))
    return np.concatenate(
        [expected_wins_of(win_counts(drawn[k : k + batch], codes, n)) for k in range(0, samples, batch)]
    )


def bootstrap_ranks(comparisons: Comparisons, samples: int, seed: int) -> np.ndarray:
    """(samples, n) Expected Wins ranks on resampled comparisons (ranked in batches too)."""
    wins = bootstrap_expected_wins(comparisons, samples, seed)
    n = len(comparisons.systems)
    batch = max(1, BATCH_CELLS // max(n * n, 1))
    return np.concatenate([ranks_of(wins[k : k + batch]) for k in range(0, samples, batch)])


def rank_ranges(ranks: np.ndarray, confidence: float = CONFIDENCE) -> list[tuple[int, int]]:
    """(best, worst) of the middle ``confidence`` of each system's sample ranks."""
    samples = ranks.shape[0]
    cut = int(math.ceil((samples - samples * confidence) / 2.0))
    ordered = np.sort(ranks, axis=0)
    kept = ordered[cut : samples - cut] if samples - 2 * cut > 0 else ordered
    return [(int(best), int(worst)) for best, worst in zip(kept[0], kept[-1])]


def clusters(order: list[int], ranges: list[tuple[int, int]]) -> list[list[int]]:
    """Systems (indices, in ``order``, best first) grouped into clusters."""
    groups: list[list[int]] = []
    worst_above = 0
    for position, system in enumerate(order):
        best_from_here = min(ranges[s][0] for s in order[position:])
        if not groups or best_from_here > worst_above:
            groups.append([])
        groups[-1].append(system)
        worst_above = max(worst_above, ranges[system][1])
    return groups
