"""A board seeded straight into the tables: the gold a benchmark hosts its task on (SEEDA's
two-annotator M2, parsed by nothing) and the entries it fills the board or pool with, one
team and one scored submission (no file) each, before it adds what it measures (metric
results, pool members) in the shape its question needs."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF_M2 = (
    Path(os.environ.get("GEC_SHARED_DIR", ROOT.parent / "shared"))
    / "data"
    / "seeda"
    / "derived"
    / "full"
    / "ref_par.m2"
)


def scored_entries(phase, count: int, *, first: int = 0, scored_at=None) -> list:
    """``count`` teams of the phase's task (``team{first}``, ``team{first + 1}``, ...), each
    with one submission marked scored at ``scored_at`` (now by default)."""
    from django.utils import timezone

    from leaderboard.models import Submission, Team

    when = scored_at or timezone.now()
    teams = Team.objects.bulk_create([Team(name=f"team{k}", task=phase.task) for k in range(first, first + count)])
    return Submission.objects.bulk_create(
        [
            Submission(
                phase=phase,
                team=team,
                system_name=team.name,
                filename="out.txt",
                content=b"",
                size=0,
                status=Submission.Status.SCORED,
                scored_at=when,
            )
            for team in teams
        ]
    )
