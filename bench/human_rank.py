"""How long does re-ranking a campaign's judgments take? Target: 10,000 judgments in at most 30 s.

A synthetic campaign like Grundkiewicz et al.'s and SEEDA's: 15 systems of graded
quality, screens of 5 outputs (systems with identical outputs share one, about one
screen in four), 20 annotators, every screen judged by two annotators and one in ten
again by the same annotator; ranks from the systems' quality plus each annotator's noise,
ties allowed. It times ``rank_systems`` (Expected Wins, TrueSkill, the 1,000-sample
bootstrap, clusters, kappa) and each part alone, best of a few repeats, wall-clock and
CPU seconds (the machine is shared: CPU time is what the ranking itself costs). It also
times the same figures on SEEDA's judgments_sent.xml when the data is beside the checkout.

    python bench/human_rank.py [JUDGMENTS] [SAMPLES]
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.human import RankingItem, rank_systems, read_judgments, write_judgments_xml  # noqa: E402
from scoring.human.agreement import agreement  # noqa: E402
from scoring.human.comparisons import expand  # noqa: E402
from scoring.human.expected_wins import expected_wins  # noqa: E402
from scoring.human.rank_ranges import bootstrap_ranks  # noqa: E402
from scoring.human.trueskill_rating import trueskill_scores  # noqa: E402

SEEDA_SENT = ROOT.parent / "shared" / "data" / "seeda" / "seeda" / "data" / "judgments_sent.xml"
SYSTEMS = [f"system-{k:02d}" for k in range(15)]
ANNOTATORS = [f"annotator{k}" for k in range(20)]
REPEATS = 3


def synthetic_campaign(judgments: int, seed: int = 1) -> list[RankingItem]:
    """``judgments`` ranking items: screens judged twice, one in ten once more by the same annotator."""
    rng = random.Random(seed)
    quality = {name: rng.gauss(0, 1) for name in SYSTEMS}
    items: list[RankingItem] = []
    screen = 0
    while len(items) < judgments:
        screen += 1
        shown = rng.sample(SYSTEMS, 6)
        groups = (
            [tuple(sorted(shown[:2]))] + [(s,) for s in shown[2:]] if rng.random() < 0.25 else [(s,) for s in shown[:5]]
        )
        judges = rng.sample(ANNOTATORS, 2)
        judges += [judges[0]] if rng.random() < 0.1 else []
        for user in judges:
            noisy = sorted(groups, key=lambda g: -(quality[g[0]] + rng.gauss(0, 1.2)))
            ranks, rank = {}, 0
            for position, group in enumerate(noisy):
                rank = rank if position and rng.random() < 0.2 else position + 1  # a tie with the one above
                ranks[group] = rank
            items.append(RankingItem(screen, user, tuple((s, ranks[g]) for g in groups for s in g), 0, tuple(groups)))
    return items[:judgments]


def timed(function, *args, **kwargs) -> tuple[float, float, object]:
    """Best (wall, CPU) seconds of a few runs, and the result."""
    best_wall = best_cpu = float("inf")
    for _ in range(REPEATS):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function(*args, **kwargs)
        best_wall, best_cpu = min(best_wall, time.perf_counter() - wall), min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result


def report(label: str, items: list[RankingItem], samples: int) -> None:
    comparisons = expand(items)
    print(
        f"== {label}: {len(items)} rankings, {len({i.user for i in items})} annotators, {len(comparisons)} "
        f"pairwise comparisons, {samples} bootstrap samples =="
    )
    parts = [
        ("expand to pairwise comparisons", lambda: expand(items)),
        ("Expected Wins", lambda: expected_wins(comparisons)),
        ("TrueSkill (every comparison once)", lambda: trueskill_scores(comparisons, 0)),
        (f"bootstrap rank ranges ({samples})", lambda: bootstrap_ranks(comparisons, samples, 0)),
        ("kappa (inter and intra)", lambda: agreement(items)),
        ("write the XML and read it back", lambda: read_judgments(write_judgments_xml(items))),
    ]
    for name, function in parts:
        wall, cpu, _ = timed(function)
        print(f"  {name:36} {wall:7.3f} s wall {cpu:7.3f} s CPU")
    wall, cpu, ranking = timed(rank_systems, items, bootstrap=samples, seed=0)
    print(f"  {'rank_systems (all of it)':36} {wall:7.3f} s wall {cpu:7.3f} s CPU  (target: at most 30 s)")
    figures = ranking.as_json()
    print(
        f"  clusters: {len(figures['clusters'])}; kappa inter {figures['agreement']['inter']:.3f} intra "
        f"{figures['agreement']['intra']:.3f}"
    )


def main(judgments: str = "10000", samples: str = "1000") -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores)")
    report("synthetic campaign", synthetic_campaign(int(judgments)), int(samples))
    if SEEDA_SENT.exists():
        report("SEEDA judgments_sent.xml", read_judgments(SEEDA_SENT), int(samples))


if __name__ == "__main__":
    main(*sys.argv[1:])
