"""Annotator agreement: Cohen's kappa on unexpanded pairwise judgments, in two readings.

A ranking gives one label per pair of *shown outputs* (identical outputs of several
systems are one output, not expanded into its systems): for outputs A and B of sentence
s, ``<`` (A better), ``=`` or ``>``. Two labels are comparable when they concern the same
sentence and the same pair of outputs. Kappa = (P(A) - P(E)) / (1 - P(E)), P(A) the share
of comparable label pairs that agree.

``emnlp2015`` (the default): Grundkiewicz et al. (EMNLP 2015), as their ``agreement.pl``
computes it. Every pair of annotators (inter) and every annotator with themself (intra:
the pairs of their own labels of one judgment, made on two screens) gets its own kappa,
with P(E) from *that pair's own labels* on the judgments it compares, ``<``, ``=`` and
``>`` counted apart: P(E) = P(<)^2 + P(=)^2 + P(>)^2.

``wmt13``: WMT13 (Bojar et al. 2013, section 3.3), one P(E) for the whole file from the
share of ties among all labels, ``<`` and ``>`` pooled: P(<) = P(>) = (1 - P(=)) / 2.

In both, a figure is the mean of the per-pair kappas weighted by their numbers of compared
label pairs, leaving out pairs comparing fewer than ``min_shared``; None when none is left.
A pair whose P(E) is 1 (every label the same) has no kappa and is left out too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from .judgments import RankingItem

Judgment = tuple[int, tuple[str, ...], tuple[str, ...]]  # sentence, output A, output B (A < B)
EMNLP2015, WMT13 = "emnlp2015", "wmt13"
KAPPA_VARIANTS = (EMNLP2015, WMT13)
LABELS = (-1, 0, 1)  # <, =, >


def unexpanded_judgments(items: list[RankingItem]) -> dict[Judgment, dict[str, list[int]]]:
    """For every (sentence, output pair): each annotator's labels (-1: A better, 0, +1), one per screen."""
    judged: dict[Judgment, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for item in items:
        rank = dict(item.ranks)
        outputs = sorted(tuple(sorted(group)) for group in item.output_groups())
        for a, b in combinations(outputs, 2):
            rank_a, rank_b = rank[a[0]], rank[b[0]]
            judged[(item.src_id, a, b)][item.user].append((rank_a > rank_b) - (rank_a < rank_b))
    return judged


@dataclass
class Tally:
    """One pair of annotators (or one with themself): agreeing and compared label pairs,
    and how many of the labels compared were ``<``, ``=``, ``>``."""

    agree: int = 0
    compared: int = 0
    labels: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, agree: int, compared: int, labels: list[int]) -> None:
        self.agree += agree
        self.compared += compared
        self.labels = [a + b for a, b in zip(self.labels, labels)]

    def own_chance(self) -> float:
        total = sum(self.labels)
        return sum((count / total) ** 2 for count in self.labels) if total else 1.0


def tallies(judged: dict[Judgment, dict[str, list[int]]]) -> tuple[dict[tuple[str, str], Tally], dict[str, Tally]]:
    """(inter, intra) tallies. Intra counts only judgments an annotator labelled twice or more."""
    inter: dict[tuple[str, str], Tally] = defaultdict(Tally)
    intra: dict[str, Tally] = defaultdict(Tally)
    for by_user in judged.values():
        counts = {user: [labels.count(label) for label in LABELS] for user, labels in by_user.items()}
        users = sorted(counts)
        for user in users:  # pairs of one annotator's screens: counted, not enumerated
            n = sum(counts[user])
            if n >= 2:
                intra[user].add(sum(c * (c - 1) // 2 for c in counts[user]), n * (n - 1) // 2, counts[user])
        for u, v in combinations(users, 2):
            agree = sum(a * b for a, b in zip(counts[u], counts[v]))
            both = [a + b for a, b in zip(counts[u], counts[v])]
            inter[(u, v)].add(agree, sum(counts[u]) * sum(counts[v]), both)
    return inter, intra


def pooled_chance(judged: dict[Judgment, dict[str, list[int]]]) -> float:
    """WMT13's P(E): the share of ties among all labels, ``<`` and ``>`` pooled."""
    labels = [label for by_user in judged.values() for values in by_user.values() for label in values]
    if not labels:
        return 0.0
    ties = labels.count(0) / len(labels)
    return ties**2 + 2 * ((1 - ties) / 2) ** 2


def weighted_kappa(tallied: dict, chance: float | None, min_shared: int) -> float | None:
    """Mean kappa over the pairs in ``tallied``, weighted by compared label pairs; each
    pair's own P(E) when ``chance`` is None."""
    total = weighted = 0.0
    for key in sorted(tallied):  # sorted: the same sum whatever the file's order
        tally = tallied[key]
        expected = tally.own_chance() if chance is None else chance
        if tally.compared < min_shared or expected >= 1.0:
            continue
        weighted += (tally.agree / tally.compared - expected) / (1 - expected) * tally.compared
        total += tally.compared
    return weighted / total if total else None


def agreement(items: list[RankingItem], min_shared: int = 50, variant: str = EMNLP2015) -> dict[str, float | None]:
    """``{"inter": kappa, "intra": kappa}`` of the annotators of ``items``."""
    if variant not in KAPPA_VARIANTS:
        raise ValueError(f"kappa variant {variant!r}: give one of {', '.join(KAPPA_VARIANTS)}")
    judged = unexpanded_judgments(items)
    inter, intra = tallies(judged)
    chance = pooled_chance(judged) if variant == WMT13 else None
    return {"inter": weighted_kappa(inter, chance, min_shared), "intra": weighted_kappa(intra, chance, min_shared)}
