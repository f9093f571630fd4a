"""Mode ``rating`` (direct assessment): the organizer's scales, checked, and an annotator's
ratings, checked and stored.

The organizer names the scales, ``[{"name": "grammaticality", "min": 1, "max": 4},
{"name": "fluency", "min": 1, "max": 4}]`` as MultiGEC-2025 rated essays, or leaves them
out for one 0-100 slider as WMT's direct assessment. Every output of a screen is rated on
every scale; a value off its scale is refused naming the output, the scale and the range.
The figures are :mod:`.rating_results`' (in the worker), the screens :mod:`.rating_screens`'.
"""

from __future__ import annotations

import re
from typing import Any, TypeGuard

from django.db import transaction

from scoring.fields.integers import whole_number
from scoring.human.rating_intervals import sign_test_p

from ...models import Campaign, Judgment
from .judging import JudgmentError, check_seconds, open_assignment, shown, store
from .sampling import shares

SCALE_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
MAX_SCALES = 5
MAX_SPAN = 1000
SLIDER = [{"name": "quality", "min": 0, "max": 100}]


def integer(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_scale(index: int, scale: object, problems: list[str]) -> dict | None:
    where = f"scales[{index}]"
    if not isinstance(scale, dict) or set(scale) - {"name", "min", "max", "labels"}:
        problems.append(
            f'{where}: a scale, {{"name", "min", "max"}} and optionally "labels" (on the form: NAME MIN MAX), '
            f"not {str(scale)[:60]!r}"
        )
        return None
    name, low, high = scale.get("name"), scale.get("min"), scale.get("max")
    found = len(problems)
    if not isinstance(name, str) or not SCALE_NAME.match(name):
        problems.append(f"{where}.name: lower-case letters, digits, _ and -, at most 40, starting with a letter")
    if not (integer(low) and integer(high) and low < high and high - low <= MAX_SPAN and abs(low) <= 10**6):
        problems.append(f"{where}: min and max integers, min < max, at most {MAX_SPAN} apart (got {low!r}, {high!r})")
    labels = checked_labels(where, scale.get("labels"), low, high, problems)
    if len(problems) > found:
        return None
    return {"name": name, "min": low, "max": high, **({"labels": labels} if labels else {})}


def checked_labels(where: str, labels: object, low: object, high: object, problems: list[str]) -> dict[str, str]:
    """A scale's point labels, ``{"1": "incomprehensible", "4": "no errors"}``: what the
    rating screen writes under those points (any points, each on the scale, each a short text)."""
    if labels is None:
        return {}
    if not isinstance(labels, dict) or not all(
        isinstance(v, str) and 0 < len(v.strip()) <= 80 for v in labels.values()
    ):
        problems.append(f'{where}.labels: {{"point": "label"}}, each label 1 to 80 characters')
        return {}
    checked = {}
    for point, text in labels.items():
        value = (
            point if isinstance(point, int) and not isinstance(point, bool) else whole_number(point, minimum=-(10**6))
        )
        if not (isinstance(value, int) and isinstance(low, int) and isinstance(high, int) and low <= value <= high):
            problems.append(f"{where}.labels: {point!r} is not a point of the scale {low!r}-{high!r}")
            continue
        checked[str(value)] = text.strip()
    return checked


def checked_scales(scales: object, problems: list[str]) -> list[dict]:
    """The scales as stored (one 0-100 slider when none is named); every problem named."""
    if scales is None:
        return [dict(s) for s in SLIDER]
    if not isinstance(scales, list) or not 1 <= len(scales) <= MAX_SCALES:
        problems.append(f"scales: a list of 1 to {MAX_SCALES} scales")
        return []
    checked = [check_scale(i, s, problems) for i, s in enumerate(scales)]
    names = [s["name"] for s in checked if s]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"scales: the name {name} is given twice")
    return [s for s in checked if s]


def check_rating_settings(rates: bool, scales: object, numbers: dict, problems: list[str]) -> list[dict]:
    """Mode-dependent checks (``rates``: the chosen mode rates); returns the scales to
    store ([] outside mode rating).

    ``numbers``: ``outputs_per_screen``, ``screens_per_annotator``, ``controls``,
    ``repeats``, ``threshold`` (already checked for type and range)."""
    outputs = numbers["outputs_per_screen"]
    if not rates:
        if scales not in (None, []):
            problems.append("scales: only a campaign in mode rating has scales")
        if integer(outputs) and outputs < 2:
            problems.append(f"outputs_per_screen: from 2 to 10 outside mode rating (got {outputs})")
        return []
    stored = checked_scales(scales, problems)
    check_rating_controls(numbers, problems)
    return stored


def check_rating_controls(numbers: dict, problems: list[str]) -> None:
    """Refuse control screens too few for the paired sign test ever to reach the threshold
    (n copies each rated below its original give at best p = 0.5^n): nobody would be trusted."""
    screens, share, repeats, threshold = (
        numbers[k] for k in ("screens_per_annotator", "controls", "repeats", "threshold")
    )
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (screens, share, repeats, threshold)):
        return
    if not (screens >= 1 and 0 <= share <= 0.5 and repeats >= 0 and 0 <= threshold <= 1):
        return
    controls = shares(int(screens), share, int(repeats))[1]
    if controls == 0 or sign_test_p(controls, 0) <= threshold:
        return
    needed = next((n for n in range(1, 64) if sign_test_p(n, 0) <= threshold), None)
    remedy = f"give each annotator at least {needed} control screens" if needed else "set controls to 0"
    problems.append(
        f"controls: {controls} control screens per annotator give at best p = {sign_test_p(controls, 0):.3g} "
        f"(one-sided paired sign test), above the threshold {threshold}, so no annotator could be trusted; "
        f"{remedy}, raise the threshold, or set controls to 0"
    )


def check_ratings(outputs: list[dict], scales: list[dict], ratings: object) -> list[str]:
    """Every output rated on every scale, each value a number on its scale."""
    if not isinstance(ratings, dict):
        return ["ratings: an object {output key: {scale: value}}"]
    keys = [o["key"] for o in outputs]
    problems = []
    unknown = [str(k) for k in ratings if k not in keys]
    if unknown:
        problems.append(
            f"ratings: no output {', '.join(unknown[:10])} on this screen (its outputs are {', '.join(keys)})"
        )
    names = [s["name"] for s in scales]
    for key in keys:
        values = ratings.get(key)
        if not isinstance(values, dict):
            problems.append(f"ratings: no ratings for {key} (rate it on {', '.join(names)})")
            continue
        extra = [str(n) for n in values if n not in names]
        if extra:
            problems.append(f"ratings: {key}: no scale {', '.join(extra[:5])} (the scales are {', '.join(names)})")
        for scale in scales:
            value = values.get(scale["name"])
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not scale["min"] <= value <= scale["max"]
            ):
                bounds = f"from {scale['min']} to {scale['max']}"
                problems.append(f"ratings: {key}'s {scale['name']} must be a number {bounds} (got {value!r})")
    return problems


def record_ratings(
    campaign: Campaign, user, item: object, ratings: Any, seconds: float | None = None
) -> Judgment | None:
    """Store ``user``'s ratings of their assignment ``item`` (:func:`.judging.store`).
    Raises :class:`JudgmentError` (400) naming every value off its scale,
    :class:`.judging.AlreadyJudged` (409)."""
    if not integer(item):
        raise JudgmentError([f"item: the item number next/ gave (got {shown(item)})"])
    with transaction.atomic():
        assignment = open_assignment(campaign, user, item)
        outputs = assignment.screen.outputs
        problems = check_ratings(outputs, campaign.scales, ratings) + check_seconds(seconds)
        if problems:
            raise JudgmentError(problems)
        rated = {o["key"]: {s["name"]: ratings[o["key"]][s["name"]] for s in campaign.scales} for o in outputs}
        return store(campaign, user, assignment, seconds, ranks={}, ratings=rated)
