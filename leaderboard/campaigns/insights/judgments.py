"""What a campaign's ranking counts: its judgments as ranking items, less the untrusted.

Read by the worker's ranking (:mod:`leaderboard.campaigns.services.human_ranking`) and by the
``judgments.xml`` export, so the file holds exactly what the ranking counted: read back
by ``python -m scoring human`` it gives the same figures.

Controls: on a control screen, a careful annotator ranks the degraded output below its
original. Over an annotator's control screens, the one-sided sign test asks how likely
so many "below" would be if they ranked at random (ties left out, as a sign test does);
at p <= the campaign's threshold (0.05 by default, as WMT's) the annotator is trusted.
Annotators with no control screen (judgments imported from a file) are not tested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from scoring.meta import RankingItem

from ...models import Campaign, Judgment, Submission


def sign_test(below: int, above: int) -> float:
    """One-sided sign test: P(at least ``below`` of ``below + above`` fair coin flips)."""
    n = below + above
    if n == 0:
        return 1.0
    return sum(math.comb(n, k) for k in range(below, n + 1)) / 2**n


def control_outcome(ranks: dict[str, int], control: str, original: str) -> str:
    """ "below" (the careful answer), "above" or "tie"."""
    if ranks[control] > ranks[original]:
        return "below"
    return "above" if ranks[control] < ranks[original] else "tie"


def system_labels(submissions: list[Submission]) -> dict[int, str]:
    """``{submission id: name}``: the system name, or team/system where two share it;
    no whitespace (Appraise's XML separates systems by spaces)."""
    names = [s.system_name for s in submissions]
    labels = {}
    for s in submissions:
        label = s.system_name if names.count(s.system_name) == 1 else f"{s.team.name}/{s.system_name}"
        labels[s.pk] = "_".join(label.split())
    return labels


@dataclass
class Counted:
    """What the ranking counts, and the controls that decided it."""

    items: list[RankingItem] = field(default_factory=list)
    controls: dict[str, dict] = field(default_factory=dict)  # user -> {"below", "above", "tie", "screens"}
    screens: dict[str, int] = field(default_factory=dict)  # user -> judged screens
    tested: set[str] = field(default_factory=set)  # users who had control screens
    untrusted: set[str] = field(default_factory=set)
    excluded_judgments: int = 0


def control_table(campaign: Campaign) -> dict[str, dict]:
    """Per user: control screens assigned, judged, and their outcomes."""
    table: dict[str, dict] = {}
    # screens of an invitation nobody accepted yet are nobody's: no annotator to test
    assigned = campaign.assignments.filter(screen__is_control=True, annotator__isnull=False).values_list(
        "annotator__username", flat=True
    )
    for user in assigned:
        table.setdefault(user, {"assigned": 0, "below": 0, "above": 0, "tie": 0})["assigned"] += 1
    return table


def judged_groups(judgment: Judgment, labels: dict[int, str], controls: dict[str, dict]) -> list:
    """``[(systems, rank)]`` of one judgment (its control output tallied in ``controls``)."""
    groups: list[tuple[tuple[str, ...], int]] = []
    if judgment.assignment is None:
        for ids, rank in judgment.ranks:
            groups.append((tuple(labels[pk] for pk in ids if pk in labels), rank))
        return [(g, r) for g, r in groups if g]
    for output in judgment.assignment.screen.outputs:
        if output["control_of"]:
            controls[judgment.user][control_outcome(judgment.ranks, output["key"], output["control_of"])] += 1
            continue
        groups.append((tuple(labels[pk] for pk in output["systems"] if pk in labels), judgment.ranks[output["key"]]))
    return [(g, r) for g, r in groups if g]


def count_judgments(campaign: Campaign, labels: dict[int, str]) -> Counted:
    """Every judgment as a ranking item of system names (control outputs left out), the
    untrusted annotators' left out of ``items``."""
    counted = Counted(controls=control_table(campaign))
    counted.tested = set(counted.controls)
    raw: list[tuple[str, int, list[tuple[tuple[str, ...], int]], float | None]] = []
    judgments = Judgment.objects.filter(campaign=campaign).select_related("assignment__screen").order_by("pk")
    for judgment in judgments.iterator(chunk_size=2000):
        counted.screens[judgment.user] = counted.screens.get(judgment.user, 0) + 1
        groups = judged_groups(judgment, labels, counted.controls)
        raw.append((judgment.user, judgment.line + 1, groups, judgment.duration))
    for user, entry in counted.controls.items():
        entry["p_value"] = sign_test(entry["below"], entry["above"])
        entry["trusted"] = entry["p_value"] <= campaign.threshold
        if not entry["trusted"]:
            counted.untrusted.add(user)
    for user, src_id, groups, duration in raw:
        if user in counted.untrusted:
            counted.excluded_judgments += 1
            continue
        ranks = tuple((system, rank) for g, rank in groups for system in g)
        item = RankingItem(src_id, user, ranks, len(counted.items) + 1, tuple(g for g, _ in groups), duration)
        if item.counts():  # the one count of rankings, as ``scoring human`` says it
            counted.items.append(item)
    return counted


def _ranked_groups(judgment: Judgment, labels: dict[int, str], counted: Counted) -> list[tuple[tuple[str, ...], int]]:
    """One judgment's (system names, rank) groups; its control outputs go to the annotator's control outcomes."""
    if judgment.assignment is None:
        return [(tuple(labels[pk] for pk in ids if pk in labels), rank) for ids, rank in judgment.ranks]
    groups: list[tuple[tuple[str, ...], int]] = []
    for output in judgment.assignment.screen.outputs:
        if output["control_of"]:
            outcome = control_outcome(judgment.ranks, output["key"], output["control_of"])
            counted.controls[judgment.user][outcome] += 1
            continue
        groups.append((tuple(labels[pk] for pk in output["systems"] if pk in labels), judgment.ranks[output["key"]]))
    return groups


def counted_items(campaign: Campaign) -> list[RankingItem]:
    """What the ranking counts (the judgments.xml export)."""
    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    return count_judgments(campaign, system_labels(submissions)).items


def judgments_table(campaign: Campaign):
    """Every judgment, one row per system ranked (and per control output): who, which
    sentence, the rank, whether the ranking counts it, and in mode edits the marks of the
    output's listed edits in order ("101": first and third valid)."""
    from ...insights.exports import Table

    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    labels = system_labels(submissions)
    untrusted = count_judgments(campaign, labels).untrusted
    rows = []
    judgments = Judgment.objects.filter(campaign=campaign).select_related("assignment__screen").order_by("pk")
    for judgment in judgments.iterator(chunk_size=2000):
        counted = judgment.user not in untrusted
        when = judgment.created_at.isoformat()
        if judgment.assignment is None:
            for ids, rank in judgment.ranks:
                rows += [
                    [
                        judgment.pk,
                        judgment.user,
                        judgment.line + 1,
                        labels.get(pk, str(pk)),
                        rank,
                        "",
                        counted,
                        "imported",
                        "",
                        when,
                    ]
                    for pk in ids
                ]
            continue
        screen = judgment.assignment.screen
        for output in screen.outputs:
            rank = judgment.ranks[output["key"]]
            marks = "".join("1" if valid else "0" for valid in judgment.edits.get(output["key"], []))
            if output["control_of"]:
                rows.append(
                    [
                        judgment.pk,
                        judgment.user,
                        judgment.line + 1,
                        f"control of {output['control_of']}",
                        rank,
                        output["key"],
                        False,
                        "control",
                        marks,
                        when,
                    ]
                )
            for pk in output["systems"]:
                kind = "repeat" if judgment.assignment.repeat else "screen"
                rows.append(
                    [
                        judgment.pk,
                        judgment.user,
                        judgment.line + 1,
                        labels.get(pk, str(pk)),
                        rank,
                        output["key"],
                        counted,
                        kind,
                        marks,
                        when,
                    ]
                )
    columns = ["judgment", "user", "src_id", "system", "rank", "output", "counted", "kind", "edits_valid", "created_at"]
    return Table(f"Judgments of campaign {campaign.name}", columns, rows)
