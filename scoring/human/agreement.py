"""Annotator agreement: Cohen's kappa on unexpanded pairwise judgments (WMT13 section 3.3;
Grundkiewicz et al., EMNLP 2015, section 3).

A ranking gives one judgment per pair of *shown outputs* (identical outputs of several
systems are one output, not expanded into its systems): for outputs A and B of sentence
s, A < B, A = B or A > B. Two judgments are comparable when they concern the same
sentence and the same pair of outputs. Kappa = (P(A) - P(E)) / (1 - P(E)) where P(A) is
the share of comparable judgment pairs that agree and, as in WMT, P(E) comes from the
observed distribution of all judgments: P(=) their share of ties and
P(<) = P(>) = (1 - P(=)) / 2, so P(E) = P(=)^2 + P(<)^2 + P(>)^2.

Inter-annotator: kappa for each pair of annotators over the judgment pairs they share;
intra-annotator: for each annotator over the pairs of their own repeated judgments (the
same outputs judged on two screens). Each figure is the mean of the per-pair kappas
weighted by their numbers of shared judgment pairs, leaving out pairs sharing fewer than
``min_shared``; None when no pair is left.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from .judgments import RankingItem

Judgment = tuple[int, tuple[str, ...], tuple[str, ...]]  # sentence, output A, output B (A < B)


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


def chance_agreement(judged: dict[Judgment, dict[str, list[int]]]) -> float:
    labels = [label for by_user in judged.values() for values in by_user.values() for label in values]
    if not labels:
        return 0.0
    ties = labels.count(0) / len(labels)
    return ties**2 + 2 * ((1 - ties) / 2) ** 2


def weighted_kappa(tallies: dict, chance: float, min_shared: int) -> float | None:
    """Mean kappa over the pairs of annotators in ``tallies`` ({pair: [agreements, shared]})."""
    kept = [
        tallies[key] for key in sorted(tallies) if tallies[key][1] >= min_shared
    ]  # sorted: the same sum whatever the file's order
    total = sum(shared for _, shared in kept)
    if not total or chance >= 1.0:
        return None
    return sum(((agree / shared - chance) / (1 - chance)) * shared for agree, shared in kept) / total


def agreement(items: list[RankingItem], min_shared: int = 50) -> dict[str, float | None]:
    """``{"inter": kappa, "intra": kappa}`` of the annotators of ``items``."""
    judged = unexpanded_judgments(items)
    inter: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    intra: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for by_user in judged.values():
        tally = {user: [labels.count(label) for label in (-1, 0, 1)] for user, labels in by_user.items()}
        users = sorted(tally)
        for user in users:  # pairs of one annotator's screens: counted, not enumerated
            n = sum(tally[user])
            intra[user][0] += sum(c * (c - 1) // 2 for c in tally[user])
            intra[user][1] += n * (n - 1) // 2
        for u, v in combinations(users, 2):
            inter[(u, v)][0] += sum(a * b for a, b in zip(tally[u], tally[v]))
            inter[(u, v)][1] += sum(tally[u]) * sum(tally[v])
    chance = chance_agreement(judged)
    return {"inter": weighted_kappa(inter, chance, min_shared), "intra": weighted_kappa(intra, chance, min_shared)}
