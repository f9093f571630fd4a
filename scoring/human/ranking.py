"""The human ranking of systems from relative rankings: Expected Wins, TrueSkill, rank
ranges, clusters and annotator agreement, in one call (``rank_systems``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..version import __version__
from .agreement import EMNLP2015, agreement
from .comparisons import expand
from .expected_wins import expected_wins
from .judgments import RankingItem, counted_rankings
from .rank_ranges import CONFIDENCE, bootstrap_ranks, clusters, rank_ranges, ranks_of
from .trueskill_rating import VERSION as TRUESKILL_VERSION
from .trueskill_rating import trueskill_scores

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 0
MIN_SHARED = 50
MAX_SAMPLES = 100_000  # bounds the cost of one call


def human_signature(samples: int, seed: int, min_shared: int, kappa: str = EMNLP2015) -> str:
    """sacreBLEU-style: what produced the figures, so two runs can be compared."""
    return (
        f"human:ew+ts|bootstrap:{samples}|seed:{seed}|ci:{CONFIDENCE}|kappa:{kappa}|kappa-min:{min_shared}"
        f"|trueskill:{TRUESKILL_VERSION}|version:{__version__}"
    )


@dataclass(frozen=True)
class SystemRanking:
    name: str
    expected_wins: float
    trueskill: float
    range: tuple[int, int]  # 95% rank range (best, worst), 1 = best
    cluster: int  # 1 = best


@dataclass(frozen=True)
class HumanRanking:
    """Systems best first (by Expected Wins, equal ones by name)."""

    systems: tuple[SystemRanking, ...]
    agreement: dict
    rankings: int
    annotators: int
    signature: str

    def clusters(self) -> list[list[str]]:
        groups: list[list[str]] = []
        for system in self.systems:
            if len(groups) < system.cluster:
                groups.append([])
            groups[-1].append(system.name)
        return groups

    def as_json(self) -> dict:
        return {
            "systems": {
                s.name: {
                    "expected_wins": s.expected_wins,
                    "trueskill": s.trueskill,
                    "range": list(s.range),
                    "cluster": s.cluster,
                }
                for s in self.systems
            },
            "clusters": self.clusters(),
            "agreement": dict(self.agreement),
            "rankings": self.rankings,
            "annotators": self.annotators,
            "signature": self.signature,
        }


def rank_systems(
    items: Iterable[RankingItem],
    *,
    bootstrap: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    min_shared: int = MIN_SHARED,
    kappa: str = EMNLP2015,
) -> HumanRanking:
    """Rank the systems of ``items``; ``bootstrap=0`` gives every system its own rank as its range.
    ``kappa`` names the agreement's reading (:mod:`.agreement`); ``rankings`` counts the
    items that rank two systems or more (:func:`.judgments.counted_rankings`).

    Raises ValueError for a sample count outside 0..MAX_SAMPLES, and
    :class:`scoring.InputError` (by line) for rankings past the limits of :mod:`.comparisons`.
    """
    if not 0 <= bootstrap <= MAX_SAMPLES:
        raise ValueError(f"bootstrap={bootstrap}: give 0 to {MAX_SAMPLES} samples")
    items = list(items)
    comparisons = expand(items)
    names = comparisons.systems
    ew = expected_wins(comparisons)
    mu, _sigma = trueskill_scores(comparisons, seed)
    order = sorted(
        range(len(names)), key=lambda k: (-ew[k], names[k])
    )  # not TrueSkill: it follows the order of the rankings
    if bootstrap > 0 and len(comparisons):
        ranges = rank_ranges(bootstrap_ranks(comparisons, bootstrap, seed))
    else:
        point = ranks_of(ew)[0] if len(names) else []
        ranges = [(int(r), int(r)) for r in point]
    groups = clusters(order, ranges)
    cluster_of = {system: number for number, group in enumerate(groups, start=1) for system in group}
    systems = tuple(
        SystemRanking(names[k], round(float(ew[k]), 6), round(float(mu[k]), 6), ranges[k], cluster_of[k]) for k in order
    )
    return HumanRanking(
        systems=systems,
        agreement=agreement(items, min_shared, kappa),
        rankings=counted_rankings(items),
        annotators=len({item.user for item in items if item.counts()}),
        signature=human_signature(bootstrap, seed, min_shared, kappa),
    )


def scheme_scores(rankings: dict[str, list[RankingItem]], *, seed: int = DEFAULT_SEED) -> dict[str, dict[str, float]]:
    """Human system scores per scheme, ``NAME:EW`` and ``NAME:TS`` for each ranking file,
    for ``python -m scoring meta`` when no scheme file is given (higher is better in both)."""
    schemes = {}
    for name, items in rankings.items():
        comparisons = expand(list(items))
        mu, _sigma = trueskill_scores(comparisons, seed)
        schemes[f"{name}:EW"] = dict(zip(comparisons.systems, map(float, expected_wins(comparisons))))
        schemes[f"{name}:TS"] = dict(zip(comparisons.systems, map(float, mu)))
    return schemes
