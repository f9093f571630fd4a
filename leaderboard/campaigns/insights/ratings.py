"""What a rating campaign's figures count: its ratings, less the untrusted annotators'.

Read by the worker (:mod:`leaderboard.campaigns.services.rating_results`) and by the
ratings CSV export, so the file holds exactly what the figures counted: read back by
``python -m scoring human --ratings`` it gives the same figures.

Controls, as Appraise's direct assessment: a control screen shows a degraded copy of an
output the same annotator rates on another screen of their queue. Each rated output is
summarised by the mean of its ratings over the scales, each put on 0..1 by its scale's
range; per annotator, each copy is paired with their own rating of its original (the
mean, if they saw it twice) and a one-sided sign test asks whether they rated originals
higher than their copies, ties left out (trusted at p <= the campaign's threshold).
The degraded copies are never counted; annotators without control screens (a file's) are
not tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.human.ratings import Rating, paired_control_p

from ...models import Campaign, Judgment
from .builtin_outputs import builtin_labels
from .judgments import system_labels


@dataclass
class CountedRatings:
    ratings: list[Rating] = field(default_factory=list)
    controls: dict[str, dict] = field(default_factory=dict)  # user -> {"originals", "degraded", "p_value", "trusted"}
    screens: dict[str, int] = field(default_factory=dict)  # user -> judged screens
    untrusted: set[str] = field(default_factory=set)
    excluded_judgments: int = 0


def unit_value(values: dict[str, float], scales: list[dict]) -> float:
    """One rated output's ratings as one figure in 0..1: the mean over scales of each put
    on its scale's range (so a 1-4 scale and a 0-100 slider weigh alike)."""
    shares = [(values[s["name"]] - s["min"]) / (s["max"] - s["min"]) for s in scales if s["name"] in values]
    return sum(shares) / len(shares) if shares else 0.0


@dataclass
class Collected:
    """A judgment's rows before trust is known: (user, ratings) and the control pairs."""

    rows: list[tuple[str, list[Rating]]] = field(default_factory=list)
    originals: dict[tuple[str, int, tuple[int, ...]], list[float]] = field(default_factory=dict)
    degraded: list[tuple[str, int, tuple[int, ...], float]] = field(default_factory=list)


def collect(judgment: Judgment, scales: list[dict], labels: dict[int, str], into: Collected) -> None:
    user, item = judgment.user, str(judgment.line + 1)
    ratings: list[Rating] = []
    if judgment.assignment is None:
        for pk, values in judgment.ratings.items():
            if int(pk) in labels:
                ratings += [Rating(user, item, labels[int(pk)], s, float(v)) for s, v in values.items()]
        into.rows.append((user, ratings))
        return
    for output in judgment.assignment.screen.outputs:
        values = judgment.ratings.get(output["key"], {})
        if output.get("control_of"):
            original = tuple(output.get("original_systems", []))
            into.degraded.append((user, judgment.line, original, unit_value(values, scales)))
            continue
        into.originals.setdefault((user, judgment.line, tuple(output["systems"])), []).append(
            unit_value(values, scales)
        )
        for pk in output["systems"]:
            if pk in labels:
                ratings += [Rating(user, item, labels[pk], s["name"], float(values[s["name"]])) for s in scales]
    into.rows.append((user, ratings))


def control_outcomes(collected: Collected, threshold: float) -> dict[str, dict]:
    """Per tested user: the originals' and degraded copies' summaries, their pairs, p and trust."""
    table: dict[str, dict] = {}
    for user, line, systems, value in collected.degraded:
        entry = table.setdefault(user, {"originals": [], "degraded": [], "pairs": []})
        entry["degraded"].append(value)
        originals = collected.originals.get((user, line, systems), [])
        entry["originals"] += originals
        if originals:  # a copy whose original they never rated tells nothing
            entry["pairs"].append((sum(originals) / len(originals), value))
    for entry in table.values():
        entry["p_value"] = paired_control_p(entry["pairs"])
        entry["trusted"] = entry["p_value"] <= threshold
    return table


def count_ratings(campaign: Campaign, labels: dict[int, str]) -> CountedRatings:
    """Every rating of a system (degraded copies left out), the untrusted annotators' left out."""
    collected = Collected()
    judgments = Judgment.objects.filter(campaign=campaign).select_related("assignment__screen").order_by("pk")
    for judgment in judgments.iterator(chunk_size=2000):
        collect(judgment, campaign.scales, labels, collected)
    counted = CountedRatings(controls=control_outcomes(collected, campaign.threshold))
    counted.untrusted = {user for user, entry in counted.controls.items() if not entry["trusted"]}
    for user, ratings in collected.rows:
        counted.screens[user] = counted.screens.get(user, 0) + 1
        if user in counted.untrusted:
            counted.excluded_judgments += 1
        else:
            counted.ratings += ratings
    return counted


def counted_ratings(campaign: Campaign) -> list[Rating]:
    """What the figures count (the ratings CSV export)."""
    submissions = list(campaign.systems.select_related("team").order_by("pk"))
    return count_ratings(campaign, system_labels(submissions) | builtin_labels(campaign)).ratings


def rating_schemes(name: str, systems: dict) -> dict[str, dict[str, float]]:
    """``{"NAME:SCALE": {system: mean z}}``: each scale one scheme of the meta-evaluation."""
    schemes: dict[str, dict[str, float]] = {}
    for system, entry in systems.items():
        if entry.get("builtin"):
            continue  # ORIGINAL, REFERENCE: no metric scored them
        for scale, figures in entry.get("scales", {}).items():
            schemes.setdefault(f"{name}:{scale}", {})[system] = figures["z"]
    return schemes


def rating_rows(campaign: Campaign) -> list[dict]:
    """The page's table: one row per system with every scale's figures, in the campaign's
    order of scales, best first by the first (the stored JSON keeps no order)."""
    scales = [s["name"] for s in campaign.scales]
    rows = []
    for system, entry in (campaign.results or {}).get("systems", {}).items():
        rows.append({"system": system, "scales": [entry["scales"].get(s) for s in scales]})

    def order(row: dict) -> tuple:
        first = row["scales"][0] if row["scales"] and row["scales"][0] else {"cluster": 10**6, "z": 0.0}
        return (first["cluster"], -first["z"], row["system"])

    return sorted(rows, key=order)
