"""Judgments made elsewhere (Appraise's XML, SEEDA's ``judgments_*.xml``) into a campaign.

The file's system names are the phase's submissions' system names (or ``team/system``
where two teams share one); every name the phase does not know is named in one error,
and nothing is stored unless every name and sentence is known. A campaign of that name
is created when the task has none (ready, no annotators: its judgments are the file's).

A file is imported once: its judgments remember the SHA-256 of its content, and the same
content again is refused (naming the campaign and how many rankings it gave), unless
``replace`` asks for its earlier judgments to be replaced by the new ones. Only rankings
that count (two systems or more, :meth:`scoring.meta.RankingItem.counts`) are stored;
the answer says how many others the file held.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import transaction

import scoring
from scoring.meta import read_judgments

from ...models import Campaign, Judgment, Phase, Submission
from ..insights.judgments import system_labels
from .create import NAME
from .judging import judgments_changed

MAX_IMPORTED = 200_000


@dataclass(frozen=True)
class Imported:
    """What an import did: ``rankings`` stored, ``left_out`` (fewer than two systems),
    ``replaced`` rankings of an earlier import of the same file removed."""

    campaign: Campaign
    rankings: int
    left_out: int = 0
    replaced: int = 0
    what: str = "rankings"

    def message(self) -> str:
        said = f"{self.rankings} {self.what} imported into campaign {self.campaign.name}"
        if self.left_out:
            said += f" ({self.left_out} more rank fewer than two systems: not counted)"
        if self.replaced:
            said += f"; they replace the {self.replaced} of the same file's earlier import"
        return said


def already_imported(campaign: Campaign | None, digest: str, filename: str) -> list[scoring.Problem]:
    """The refusal of a file whose content the campaign holds already."""
    if campaign is None:
        return []
    earlier = Judgment.objects.filter(campaign=campaign, imported_from=digest).count()
    if not earlier:
        return []
    return [
        scoring.Problem(
            0,
            f"this file (sha256 {digest[:12]}) is already imported into campaign {campaign.name} "
            f"({earlier} rankings); importing it again would count them twice. Replace the earlier "
            "import instead (--replace; replace=true)",
            filename,
        )
    ]


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
    phase: Phase, name: str, data: bytes, *, filename: str = "judgments.xml", user=None, replace: bool = False
) -> Imported:
    """Store the file's rankings in campaign ``name`` of ``phase``'s task.
    Raises :class:`scoring.InputError` (a file imported before, without ``replace``)."""
    digest = hashlib.sha256(data).hexdigest()
    read = read_judgments_named(data, filename)
    items = [item for item in read if item.counts()]
    problems: list[scoring.Problem] = []
    if not items:
        problems.append(scoring.Problem(0, "no <ranking-item> ranks two systems or more: nothing to count", filename))
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
    n_lines = phase.gold.n_sentences
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
    if not replace:
        problems += already_imported(existing, digest, filename)
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
        replaced, _ = Judgment.objects.filter(campaign=campaign, imported_from=digest).delete()
        Judgment.objects.bulk_create(
            [
                Judgment(
                    campaign=campaign,
                    user=item.user or "imported",
                    line=item.src_id - 1,
                    imported=True,
                    imported_from=digest,
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
    return Imported(campaign, len(items), len(read) - len(items), replaced)


def read_judgments_named(data: bytes, filename: str):
    """:func:`scoring.meta.read_judgments`, its problems naming ``filename``."""
    try:
        return read_judgments(data)
    except scoring.InputError as error:
        raise scoring.InputError([scoring.Problem(p.line, p.message, filename) for p in error.problems]) from None
