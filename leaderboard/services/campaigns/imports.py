"""Judgments made elsewhere (Appraise's XML, SEEDA's ``judgments_*.xml``) into a campaign.

The file's system names are the phase's submissions' system names (or ``team/system``
where two teams share one); every name the phase does not know is named in one error,
and nothing is stored unless every name and sentence is known. A campaign of that name
is created when the task has none (ready, no annotators: its judgments are the file's).
"""

from __future__ import annotations

from django.db import transaction

import scoring
from scoring.meta import read_judgments

from ...insights.campaign_judgments import system_labels
from ...models import Campaign, Judgment, Phase, Submission
from .create import NAME
from .judging import judgments_changed

MAX_IMPORTED = 200_000


def phase_systems(phase: Phase) -> dict[str, Submission]:
    """``{name: the latest scored submission}`` by system name and by team/system."""
    scored = list(
        Submission.objects.filter(phase=phase, status=Submission.Status.SCORED)
        .select_related("team")
        .defer("content")
        .order_by("created_at", "pk")
    )
    by_name: dict[str, Submission] = {}
    for submission in scored:
        by_name[submission.system_name] = submission
        by_name[f"{submission.team.name}/{submission.system_name}"] = submission
        by_name["_".join(submission.system_name.split())] = submission
    return by_name


def import_judgments(
    phase: Phase, name: str, data: bytes, *, filename: str = "judgments.xml", user=None
) -> tuple[Campaign, int]:
    """Store the file's rankings in campaign ``name`` of ``phase``'s task; returns the
    campaign and the number of rankings. Raises :class:`scoring.InputError`."""
    items = read_judgments_named(data, filename)
    problems: list[scoring.Problem] = []
    if not NAME.match(name or ""):
        problems.append(scoring.Problem(0, "campaign: lower-case letters, digits and hyphens, at most 60", filename))
    if len(items) > MAX_IMPORTED:
        problems.append(scoring.Problem(0, f"{len(items)} rankings: the limit is {MAX_IMPORTED}", filename))
    known = phase_systems(phase)
    unknown = sorted({system for item in items for system, _ in item.ranks if system not in known})
    if unknown:
        problems.append(
            scoring.Problem(
                0, f"systems the {phase.title} phase has no scored submission of: {', '.join(unknown)}", filename
            )
        )
    n_lines = phase.dataset.n_sentences
    problems += [
        scoring.Problem(
            item.line,
            f"src-id {item.src_id} is not a sentence of the {phase.title} phase ({n_lines} sentences)",
            filename,
        )
        for item in items
        if item.src_id > n_lines
    ][:20]
    existing = Campaign.objects.filter(task=phase.task, name=name).first()
    if existing is not None and existing.phase_id != phase.pk:
        problems.append(scoring.Problem(0, f"campaign {name} belongs to the {existing.phase.title} phase", filename))
    if problems:
        raise scoring.InputError(problems)
    with transaction.atomic():
        campaign = existing or Campaign.objects.create(
            task=phase.task,
            phase=phase,
            name=name,
            screens_per_annotator=1,
            status=Campaign.Status.READY,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        used = {known[system] for item in items for system, _ in item.ranks}
        campaign.systems.add(*used)
        labels = system_labels(list(campaign.systems.select_related("team")))
        if len(set(labels.values())) < len(labels):
            raise scoring.InputError([scoring.Problem(0, "two systems of the campaign would share a name", filename)])
        Judgment.objects.bulk_create(
            [
                Judgment(
                    campaign=campaign,
                    user=item.user or "imported",
                    line=item.src_id - 1,
                    imported=True,
                    ranks=[
                        [[known[system].pk for system in group], dict(item.ranks)[group[0]]]
                        for group in item.output_groups()
                    ],
                )
                for item in items
            ],
            batch_size=2000,
        )
        judgments_changed(campaign)
    return campaign, len(items)


def read_judgments_named(data: bytes, filename: str):
    """:func:`scoring.meta.read_judgments`, its problems naming ``filename``."""
    try:
        return read_judgments(data)
    except scoring.InputError as error:
        raise scoring.InputError([scoring.Problem(p.line, p.message, filename) for p in error.problems]) from None
