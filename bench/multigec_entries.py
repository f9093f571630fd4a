"""What choosing a MultiGEC season's entries costs on PostgreSQL: the per-corpus entries of
every team (``services.pool.counted_entries``), which a pool sync of a phase of several
corpora computes once (its corpora's pools locked together), under each counting rule.

A phase of --corpora corpora (MultiGEC-2025 had 14) and --teams teams, each with
--uploads uploads: a zip of every corpus first, then one corpus at a time (round robin),
all scored, a GLEU result per corpus file (what "best" reads). Rows are written straight
into the database (nothing is scored). Prints the rows read and the median wall and CPU
seconds of one ``counted_entries`` call.

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench_entries``, dropped and re-created).

    python bench/multigec_entries.py [--corpora 14] [--teams 50] [--uploads 20] [--repeat 5] [--no-analyze]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from fresh_database import fresh_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_NAME = "gec_bench_entries"


def seed(n_corpora: int, n_teams: int, n_uploads: int):
    """The phase and its rows; returns the phase."""
    from leaderboard.models import MetricResult, Phase, SharedTask, Submission, Team

    task = SharedTask.objects.create(slug="season", title="season", metrics=["errant", "gleu"])
    phase = Phase.objects.create(task=task, kind="test")
    corpora = [
        Phase.every.create(task=task, kind=f"test--c{k}", parent=phase, corpus=f"c{k}") for k in range(n_corpora)
    ]
    teams = Team.objects.bulk_create([Team(task=task, name=f"team{t}", invite_code=f"code{t}") for t in range(n_teams)])
    scored = {"status": Submission.Status.SCORED, "filename": "f", "content": b"", "size": 0}
    uploads = Submission.objects.bulk_create(
        [Submission(phase=phase, team=team, system_name=f"u{u}", **scored) for u in range(n_uploads) for team in teams]
    )
    outputs = []
    for k, upload in enumerate(uploads):
        u = k // n_teams
        covered = corpora if u == 0 else [corpora[u % n_corpora]]
        outputs += [
            Submission(phase=c, team_id=upload.team_id, parent=upload, system_name=upload.system_name, **scored)
            for c in covered
        ]
    outputs = Submission.objects.bulk_create(outputs, batch_size=2000)
    MetricResult.objects.bulk_create(
        [
            MetricResult(submission=o, metric="gleu", statistics={}, scores={"score": (o.pk * 7919 % 1000) / 1000})
            for o in outputs
        ],
        batch_size=2000,
    )
    return phase, len(outputs)


def cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=int, default=14)
    parser.add_argument("--teams", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-analyze", action="store_true", help="time on fresh rows without planner statistics")
    args = parser.parse_args()
    fresh_database(DB_NAME)
    from leaderboard.models import Phase
    from leaderboard.services.pool.membership import counted_entries

    phase, n_outputs = seed(args.corpora, args.teams, args.uploads)
    if not args.no_analyze:  # as autovacuum would soon after the rows land
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"{args.corpora} corpora, {args.teams} teams x {args.uploads} uploads: {n_outputs} scored corpus files")
    for rule in ("latest", "chosen", "best"):
        Phase.every.filter(pk=phase.pk).update(counting=rule)
        walls, cpus = [], []
        for _ in range(args.repeat):
            started, cpu = time.perf_counter(), cpu_seconds()
            entries = counted_entries(phase.pk)
            walls.append(time.perf_counter() - started)
            cpus.append(cpu_seconds() - cpu)
        assert len(entries) == args.teams
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"{rule:<7} {wall * 1000:7.1f} ms (this process's CPU {cpu * 1000:6.1f} ms)")


if __name__ == "__main__":
    main()
