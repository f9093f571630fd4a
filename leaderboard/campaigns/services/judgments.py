"""Attach human judgments to a phase (stored once; the meta-evaluation reads them), or give
it an empty row, so that its meta-evaluation exists for its campaigns' schemes."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.meta import HumanJudgments

from ...models import Judgments, Phase
from .meta_tables import refresh_meta_tables


def attach_judgments(phase: Phase, human: HumanJudgments, files: list[str]) -> Judgments:
    """Store or replace ``phase``'s judgments; their meta-evaluation tables are computed
    once this commits (:mod:`..boards.meta_tables`).

    Raises :class:`scoring.InputError` when a ranked sentence is not a line of the
    phase's dataset.
    """
    human.line_of(phase.gold.n_sentences)
    judgments, _ = Judgments.objects.update_or_create(
        phase=phase,
        defaults={
            "data": human.as_json(),
            "files": files,
            "table": None,
            "table_key": "",
            "organizer_table": None,
            "organizer_table_key": "",
            "updated_at": timezone.now(),
        },
    )
    transaction.on_commit(lambda: refresh_meta_tables.enqueue(phase.pk))
    return judgments


def ensure_judgments(phase_id: int) -> None:
    """An empty judgments row for a phase that has none (publishing or ranking a campaign):
    the meta-evaluation then exists and counts the campaigns' schemes. The public knows of
    such a row only once a published campaign is ranked (``campaigns.insights.meta.judged_phases``)."""
    Judgments.objects.get_or_create(
        phase_id=phase_id, defaults={"data": HumanJudgments(schemes={}).as_json(), "files": []}
    )
