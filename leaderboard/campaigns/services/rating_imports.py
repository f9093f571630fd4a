"""Ratings made elsewhere into a rating campaign: ``annotator,item,system,scale,value``.

``item`` is the 1-based line of the phase's corpus (what the export writes); systems are
the phase's submissions' names (or ``team/system``); a campaign of the name is created
in mode rating when the task has none, its scales those of the file (in their order,
each spanning the whole numbers around the values the file holds). Into an existing
campaign, every scale must be its own and every value on it. Every problem is named by
line, and nothing is stored unless all is well.
"""

from __future__ import annotations

import math

from django.db import transaction

import scoring
from scoring.fields.integers import whole_number
from scoring.human.ratings import Rating, read_ratings

from ...models import Campaign, Judgment, Phase
from ..insights.judgments import system_labels
from ..registry import mode_of
from .create import NAME
from .imports import Imported, import_judgments, phase_systems
from .judging import judgments_changed
from .ratings import checked_scales

MAX_IMPORTED = 500_000
MAX_IMPORT_BYTES = 64 * MAX_IMPORTED  # 32 MB: 64 bytes a rating, twice what a typical row holds
MAX_NAMED = 20


def read_named(data: bytes, filename: str) -> list[Rating]:
    """The file's ratings, read within the byte and row limits (a 40 MB file cost 35.6 s and
    800 MB before its rows were counted)."""
    try:
        return read_ratings(data, max_rows=MAX_IMPORTED, max_bytes=MAX_IMPORT_BYTES)
    except scoring.InputError as error:
        raise scoring.InputError([scoring.Problem(p.line, p.message, filename) for p in error.problems]) from None


def file_scales(ratings: list[Rating]) -> list[dict]:
    """A new campaign's scales: the file's, each from the floor of its least value to the
    ceiling of its greatest (one wider when they are equal)."""
    spans: dict[str, list[float]] = {}
    for r in ratings:
        span = spans.setdefault(r.scale, [r.value, r.value])
        span[0], span[1] = min(span[0], r.value), max(span[1], r.value)
    scales = []
    for name, (low, high) in spans.items():
        low, high = math.floor(low), math.ceil(high)
        scales.append({"name": name, "min": low, "max": high if high > low else low + 1})
    return scales


def new_scales(ratings: list[Rating], problems: list[scoring.Problem], filename: str) -> list[dict]:
    """A new campaign's scales from the file, checked as a campaign's are at creation
    (names, at most five, at most 1,000 apart): ``1e308`` must not make a 309-digit scale."""
    named: list[str] = []
    scales = checked_scales(file_scales(ratings), named)
    problems += [scoring.Problem(0, f"the file's {message}", filename) for message in named]
    return scales


def row_problems(ratings: list[Rating], phase: Phase, scales: list[dict] | None, known: dict) -> list[tuple[int, str]]:
    """(line, message) of every rating the campaign cannot take."""
    by_name = {s["name"]: s for s in scales} if scales is not None else None
    n_lines = phase.gold.n_sentences
    seen: dict[tuple, int] = {}
    found = []
    for r in ratings:
        if whole_number(r.item, minimum=1, maximum=n_lines) is None:
            found.append((r.line, f"item {r.item!r} is not a sentence of the {phase.title} phase (1 to {n_lines})"))
        if r.system not in known:
            found.append((r.line, f"system {r.system}: the {phase.title} phase has no scored submission of this name"))
        if by_name is not None:
            scale = by_name.get(r.scale)
            if scale is None:
                found.append((r.line, f"scale {r.scale}: the campaign's scales are {', '.join(by_name)}"))
            elif not scale["min"] <= r.value <= scale["max"]:
                found.append(
                    (r.line, f"value {r.value:g} is off the {r.scale} scale ({scale['min']} to {scale['max']})")
                )
        key = (r.annotator, r.item, r.system, r.scale)
        if key in seen:
            found.append(
                (r.line, f"{r.annotator} rated {r.system} on {r.scale} for item {r.item} already (line {seen[key]})")
            )
        seen.setdefault(key, r.line)
    return found


def imported_before(campaign: Campaign | None, ratings: list[Rating]) -> list[tuple[int, str]]:
    """Rows whose annotator's ratings of that item were imported already: a file is imported
    once (twice would count every rating twice)."""
    if campaign is None:
        return []
    done = set(Judgment.objects.filter(campaign=campaign, imported=True).values_list("user", "line"))
    found, named = [], set()
    for r in ratings:
        item = whole_number(r.item, minimum=1)
        key = (r.annotator, item - 1) if item is not None else None
        if key in done and key not in named:
            named.add(key)
            found.append(
                (r.line, f"{r.annotator}'s ratings of item {r.item} were imported already: import a file once")
            )
    return found


def check(phase: Phase, name: str, ratings: list[Rating], existing: Campaign | None, filename: str) -> None:
    problems: list[scoring.Problem] = []
    if not NAME.match(name or ""):
        problems.append(scoring.Problem(0, "campaign: lower-case letters, digits and hyphens, at most 60", filename))
    if len(ratings) > MAX_IMPORTED:
        problems.append(scoring.Problem(0, f"{len(ratings)} ratings: the limit is {MAX_IMPORTED}", filename))
    if existing is not None and existing.phase_id != phase.pk:
        problems.append(scoring.Problem(0, f"campaign {name} belongs to the {existing.phase.title} phase", filename))
    if existing is not None and not mode_of(existing).rates:
        problems.append(
            scoring.Problem(
                0, f"campaign {name} is in mode {existing.mode}: ratings go into a rating campaign", filename
            )
        )
    scales = existing.scales if existing is not None else new_scales(ratings, problems, filename)
    found = row_problems(ratings, phase, scales, phase_systems(phase)) + imported_before(existing, ratings)
    problems += [scoring.Problem(line, message, filename) for line, message in found[:MAX_NAMED]]
    if len(found) > MAX_NAMED:
        problems.append(scoring.Problem(0, f"... and {len(found) - MAX_NAMED} more problems", filename))
    if problems:
        raise scoring.InputError(problems)


def import_ratings(
    phase: Phase, name: str, data: bytes, *, filename: str = "ratings.csv", user=None
) -> tuple[Campaign, int]:
    """Store the file's ratings in campaign ``name`` of ``phase``'s task; returns the
    campaign and the number of ratings. Raises :class:`scoring.InputError`."""
    ratings = read_named(data, filename)
    existing = Campaign.objects.filter(task=phase.task, name=name).first()
    check(phase, name, ratings, existing, filename)
    known = phase_systems(phase)
    with transaction.atomic():
        campaign = existing or Campaign.objects.create(
            task=phase.task,
            phase=phase,
            name=name,
            mode=Campaign.Mode.RATING,
            scales=file_scales(ratings),
            outputs_per_screen=1,
            screens_per_annotator=1,
            status=Campaign.Status.READY,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        campaign.systems.add(*{known[r.system] for r in ratings})
        labels = system_labels(list(campaign.systems.select_related("team")))
        if len(set(labels.values())) < len(labels):
            raise scoring.InputError([scoring.Problem(0, "two systems of the campaign would share a name", filename)])
        grouped: dict[tuple[str, int], dict[str, dict[str, float]]] = {}
        for r in ratings:
            values = grouped.setdefault((r.annotator, int(r.item)), {}).setdefault(str(known[r.system].pk), {})
            values[r.scale] = int(r.value) if r.value.is_integer() else r.value
        Judgment.objects.bulk_create(
            [
                Judgment(campaign=campaign, user=user_name, line=item - 1, imported=True, ranks={}, ratings=values)
                for (user_name, item), values in grouped.items()
            ],
            batch_size=2000,
        )
        judgments_changed(campaign)
    return campaign, len(ratings)


def refuse_rankings(campaign: Campaign | None, filename: str) -> None:
    """Rankings (Appraise's XML) have no place in a rating campaign: its figures would
    silently leave them out."""
    if campaign is not None and mode_of(campaign).rates:
        message = f"campaign {campaign.name} rates: import its ratings as CSV (annotator,item,system,scale,value)"
        raise scoring.InputError([scoring.Problem(0, message, filename)])


def import_file(phase: Phase, name: str, data: bytes, *, filename: str, user=None, replace: bool = False) -> Imported:
    """A file of either kind into campaign ``name``: ratings when it is named ``*.csv``,
    else rankings in Appraise's XML (refused by a rating campaign; ``replace`` as
    :func:`.imports.import_judgments` takes it)."""
    if filename.lower().endswith(".csv"):
        campaign, count = import_ratings(phase, name, data, filename=filename, user=user)
        return Imported(campaign, count, what="ratings")
    refuse_rankings(Campaign.objects.filter(task=phase.task, name=name).first(), filename)
    return import_judgments(phase, name, data, filename=filename, user=user, replace=replace)
