"""Attach human judgments to a phase (stored once; the meta-evaluation reads them)."""
from __future__ import annotations

from django.utils import timezone

from scoring.meta import HumanJudgments

from ...models import Judgments, Phase


def attach_judgments(phase: Phase, human: HumanJudgments, files: list[str]) -> Judgments:
    """Store or replace ``phase``'s judgments; the table is recomputed on the next read.

    Raises :class:`scoring.InputError` when a ranked sentence is not a line of the
    phase's dataset.
    """
    human.line_of(phase.dataset.n_sentences)
    judgments, _ = Judgments.objects.update_or_create(
        phase=phase, defaults={"data": human.as_json(), "files": files, "table": None, "table_key": "", "updated_at": timezone.now()},
    )
    return judgments
