"""Mode edits: what the annotators' valid/invalid marks say per system (the worker's).

Per system: the edits shown in its outputs, how many were marked valid, the valid share,
and an edit-level Expected Wins. SEEDA's edit-based evaluation (SEEDA-E, Kobayashi et al.,
TACL 2024) has annotators judge each edit before ranking; the ranking itself is the
campaign's (its ranks are given after the marks). The edit-level Expected Wins here ranks
from the marks alone: on each judged screen, of two systems' outputs the one with the
larger share of valid edits wins, equal shares tie (left out, as Expected Wins does), and
an output without edits takes no part. Control outputs and practice screens are left out;
only trusted annotators' judgments count, as in the ranking.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from ...models import Campaign, Judgment
from ..insights.judgments import count_judgments, system_labels


def screen_shares(judgment: Judgment, labels: dict[int, str]) -> dict[str, tuple[int, int]]:
    """``{system: (valid, shown)}`` on one judged screen."""
    found = {}
    assert judgment.assignment is not None  # edit_marks reads only judgments of a screen (assignment__isnull=False)
    for output in judgment.assignment.screen.outputs:
        if output["control_of"]:
            continue
        marks = judgment.edits.get(output["key"], [])
        for pk in output["systems"]:
            if pk in labels:
                found[labels[pk]] = (sum(1 for m in marks if m), len(marks))
    return found


def expected_wins(wins: dict, systems: list[str]) -> dict[str, float | None]:
    """Mean over the other systems of wins / (wins + losses); None without any comparison."""
    figures = {}
    for system in systems:
        ratios = [
            wins[(system, other)] / (wins[(system, other)] + wins[(other, system)])
            for other in systems
            if other != system and wins[(system, other)] + wins[(other, system)]
        ]
        figures[system] = sum(ratios) / len(ratios) if ratios else None
    return figures


def edit_marks(campaign: Campaign) -> dict[str, dict]:
    """``{system: {"edits", "valid", "valid_share", "expected_wins"}}`` (mode edits' figures)."""
    labels = system_labels(list(campaign.systems.select_related("team").order_by("pk")))
    untrusted = count_judgments(campaign, labels).untrusted
    totals: dict[str, list[int]] = {name: [0, 0] for name in labels.values()}
    wins: dict[tuple[str, str], int] = defaultdict(int)
    judgments = Judgment.objects.filter(campaign=campaign, assignment__isnull=False).select_related(
        "assignment__screen"
    )
    for judgment in judgments.order_by("pk").iterator(chunk_size=2000):
        if judgment.user in untrusted:
            continue
        shares = screen_shares(judgment, labels)
        for system, (valid, shown) in shares.items():
            totals[system][0] += valid
            totals[system][1] += shown
        scored = {s: v / n for s, (v, n) in shares.items() if n}
        for a, b in itertools.combinations(sorted(scored), 2):
            if scored[a] != scored[b]:
                wins[(a, b) if scored[a] > scored[b] else (b, a)] += 1
    ew = expected_wins(wins, sorted(totals))
    return {
        system: {
            "edits": shown,
            "valid": valid,
            "valid_share": valid / shown if shown else None,
            "expected_wins": ew[system],
        }
        for system, (valid, shown) in sorted(totals.items())
    }
