"""Cohen's kappa on unexpanded judgments, figured by hand: Grundkiewicz et al.'s (EMNLP
2015, each pair's own P(E), the default) and WMT13's (one pooled P(E), ``wmt13``), both
weighted over annotator pairs; and the default held to a plain enumeration of every
label pair, as ``agreement.pl`` walks them, on random files."""

from __future__ import annotations

import pytest

from scoring.human import RankingItem
from scoring.human.agreement import WMT13, agreement, unexpanded_judgments


def item(user, *outputs, src_id=1):
    """``outputs``: (systems, rank) with systems space-separated, as in a <translation>."""
    groups = tuple(tuple(systems.split()) for systems, _ in outputs)
    return RankingItem(
        src_id, user, tuple((s, rank) for (systems, rank) in outputs for s in systems.split()), 0, groups
    )


def test_kappa_of_two_annotators_by_hand():
    a = item("a", ("X", 1), ("Y", 2), ("Z", 3))
    b = item("b", ("X", 1), ("Y", 1), ("Z", 3))
    # judgments: a X>Y X>Z Y>Z, b X=Y X>Z Y>Z: P(A) = 2/3; ties 1/6 of the six,
    # P(E) = (1/6)^2 + 2 * (5/12)^2 = 0.375; kappa = (2/3 - 0.375) / 0.625
    assert agreement([a, b], min_shared=1, variant=WMT13)["inter"] == pytest.approx((2 / 3 - 0.375) / 0.625)
    assert agreement([a, b], min_shared=4)["inter"] is None  # they share 3 judgments


def test_identical_outputs_are_one_output_not_expanded():
    judged = unexpanded_judgments([item("a", ("X Y", 1), ("Z", 2))])
    assert list(judged) == [(1, ("X", "Y"), ("Z",))]  # one judgment, not X>Z and Y>Z


def test_intra_counts_pairs_of_one_annotators_screens_and_weights_by_shared():
    first, again, third = (item("a", ("X", 1), ("Y", 2)), item("a", ("X", 2), ("Y", 1)), item("a", ("X", 1), ("Y", 2)))
    # three screens of one pair: 3 pairs of screens, 1 agreeing; no ties, so (as WMT)
    # P(<) = P(>) = 0.5 whatever the split, P(E) = 0.5: kappa = (1/3 - 0.5) / 0.5
    assert agreement([first, again, third], min_shared=1, variant=WMT13)["intra"] == pytest.approx((1 / 3 - 0.5) / 0.5)
    # another annotator, two agreeing screens (1 pair, kappa 1): the mean weighted 3 to 1
    c = [item("c", ("X", 1), ("Y", 2), src_id=2), item("c", ("X", 1), ("Y", 2), src_id=2)]
    assert agreement([first, again, third, *c], min_shared=1, variant=WMT13)["intra"] == pytest.approx(
        (3 * (1 / 3 - 0.5) / 0.5 + 1) / 4
    )
    assert agreement([first, again, third, *c], min_shared=2, variant=WMT13)["intra"] == pytest.approx(
        (1 / 3 - 0.5) / 0.5
    )  # c left out


def test_emnlp2015_takes_chance_from_the_pairs_own_labels_by_hand():
    a = item("a", ("X", 1), ("Y", 2), ("Z", 3))
    b = item("b", ("X", 1), ("Y", 1), ("Z", 3))
    # labels a: < < <, b: = < <; P(A) = 2/3; of the 6 labels 5 "<", 1 "=", 0 ">":
    # P(E) = (5/6)^2 + (1/6)^2 = 26/36, where WMT13's pooled reading gives 0.375
    chance = 26 / 36
    assert agreement([a, b], min_shared=1)["inter"] == pytest.approx((2 / 3 - chance) / (1 - chance))


def test_emnlp2015_counts_less_and_more_apart_within_one_annotator():
    # three screens of one pair by a: "<", ">", "<" (3 pairs, 1 agreeing);
    # own labels 2 "<", 1 ">": P(E) = (2/3)^2 + (1/3)^2 = 5/9, not WMT13's 0.5
    screens = [item("a", ("X", 1), ("Y", 2)), item("a", ("X", 2), ("Y", 1)), item("a", ("X", 1), ("Y", 2))]
    assert agreement(screens, min_shared=1)["intra"] == pytest.approx((1 / 3 - 5 / 9) / (1 - 5 / 9))


def test_a_pair_whose_labels_are_all_one_has_no_kappa():
    same = [item("a", ("X", 1), ("Y", 2)), item("b", ("X", 1), ("Y", 2))]
    assert agreement(same, min_shared=1)["inter"] is None  # their own P(E) is 1
    assert agreement(same, min_shared=1, variant=WMT13)["inter"] == 1.0  # pooled: P(<) = P(>) = 0.5


def test_an_unknown_variant_is_refused_by_name():
    with pytest.raises(ValueError, match="'wmt14'"):
        agreement([item("a", ("X", 1), ("Y", 2))], variant="wmt14")


def labels_of(items):
    """{user: {(sentence, output, output): ["<" | "=" | ">", ...]}}, as agreement.pl collects them."""
    labels = {}
    for it in items:
        rank = dict(it.ranks)
        outputs = sorted(tuple(sorted(g)) for g in it.output_groups())
        for i, x in enumerate(outputs):
            for y in outputs[i + 1 :]:
                symbol = "<" if rank[x[0]] < rank[y[0]] else ">" if rank[x[0]] > rank[y[0]] else "="
                labels.setdefault(it.user, {}).setdefault((it.src_id, x, y), []).append(symbol)
    return labels


def walk(mine, theirs, self_pair):
    """(agreeing, compared, labels seen) of one annotator pair, every label pair enumerated."""
    agree = compared = 0
    shown = []
    for key, own in mine.items():
        if key not in theirs or (self_pair and len(own) == 1):
            continue
        if self_pair:
            pairs = [(own[i], own[j]) for i in range(len(own)) for j in range(i + 1, len(own))]
            shown += own
        else:
            pairs = [(p, q) for p in own for q in theirs[key]]
            shown += own + theirs[key]
        agree += sum(p == q for p, q in pairs)
        compared += len(pairs)
    return agree, compared, shown


def enumerated(items, min_shared):
    """agreement.pl's walk, written plainly, per pair of annotators (and each with themself)."""
    labels = labels_of(items)
    sums = {"inter": [0.0, 0], "intra": [0.0, 0]}
    for u in sorted(labels):
        for v in sorted(labels):
            if u > v:
                continue
            agree, compared, shown = walk(labels[u], labels[v], u == v)
            chance = sum((shown.count(s) / len(shown)) ** 2 for s in "<=>") if shown else 1
            if compared >= min_shared and chance < 1:
                slot = sums["intra" if u == v else "inter"]
                slot[0] += (agree / compared - chance) / (1 - chance) * compared
                slot[1] += compared
    return {k: (w / n if n else None) for k, (w, n) in sums.items()}


@pytest.mark.parametrize("seed", range(6))
def test_emnlp2015_equals_agreement_pl_walk_on_random_files(seed):
    import random

    rng = random.Random(seed)
    systems = ["A", "B", "C", "D", "E"]
    items = []
    for _ in range(120):
        shown = rng.sample(systems, rng.randint(2, 5))
        groups = [(s, rng.randint(1, 3)) for s in shown]
        items.append(item(rng.choice("uvw"), *groups, src_id=rng.randint(1, 8)))
    mine, walked = agreement(items, min_shared=5), enumerated(items, min_shared=5)
    for key in ("inter", "intra"):
        assert (mine[key] is None) == (walked[key] is None)
        if mine[key] is not None:
            assert mine[key] == pytest.approx(walked[key], abs=1e-12)
