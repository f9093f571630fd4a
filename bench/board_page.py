"""What the task's board page costs as the board grows: queries and CPU per request.

A task on the bundled demo gold (its first 60 sentences, no ../shared needed), one
simulated system scored through the platform's own job, then copies of its results as
further teams' entries (as a join would store them) until the board has N rows. At each N
the pool's version moves (``board_changed``, as every join does) and the page is asked by a
visitor, a team member and an organizer: the first request after the move, with nothing
kept (it reads the board once for this version: rows, stored summaries, human columns,
tie groups; for a public phase the live files' writer is usually first), and the median
of the next few (the board as kept). Prints, per N and role, the queries and the
CPU milliseconds of this process (Django's side; the database's own time is small and
the machine is shared, so CPU time is the figure that holds).

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench_board``, dropped and re-created).

    python bench/board_page.py [--rows 10,50,200,500] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DB_NAME = "gec_bench_board"
SENTENCES = 60


def seed():
    """The task, its organizer, one member and the first scored entry."""
    from django.contrib.auth.models import User

    from leaderboard import demo
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission
    from scoring import read_m2

    gold = demo.gold_blocks(0, SENTENCES)
    task = create_task("board-bench", title="Board bench", m2=gold, metrics=["errant", "gleu"])
    phase = task.phases.get()
    organizer = User.objects.create_user("bench-organizer", password="pw")
    task.organizers.add(organizer)
    member = User.objects.create_user("bench-member", password="pw")
    output = demo.simulate(read_m2(gold.encode()), demo.SYSTEMS[1]).encode()
    first = accept_submission(
        phase, member, system_name="first", filename="out.txt", content=output, enforce_limits=False, queue=False
    )
    score_submission(first.pk)
    return task, phase, {"visitor": None, "member": member, "organizer": organizer}, first


def grow(phase, first, rows: int) -> None:
    """Entries copied from ``first`` (its outcomes and scores) until the board has ``rows``,
    then the version moved, as a join moves it."""
    from seeded_board import scored_entries

    from leaderboard.board_version import board_changed
    from leaderboard.models import MetricResult, Pool, PoolMember

    have = PoolMember.objects.filter(pool__phase=phase).count()
    model = PoolMember.objects.filter(submission=first).first()
    results = list(MetricResult.objects.filter(submission=first))
    copies = scored_entries(phase, rows - have, first=have, scored_at=first.scored_at)
    PoolMember.objects.bulk_create(
        [PoolMember(pool=model.pool, submission=c, modified=model.modified, correct=model.correct) for c in copies]
    )
    MetricResult.objects.bulk_create(
        [
            MetricResult(submission=c, metric=r.metric, statistics=r.statistics, scores=r.scores)
            for c in copies
            for r in results
        ]
    )
    Pool.objects.filter(phase=phase).update(size=rows)
    board_changed(phase.pk)


def asked(client, path: str) -> tuple[int, float]:
    """(queries, CPU ms) of one GET."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        response = client.get(path, secure=True)  # as behind the TLS proxy
        cpu = (time.process_time() - start) * 1000
    assert response.status_code == 200, response.status_code
    return len(queries.captured_queries), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="10,50,200,500", help="board sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="requests after the first, per size and role")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from fresh_database import fresh_database

    fresh_database(DB_NAME, ALLOWED_HOSTS="testserver,localhost")
    from django.core.cache import caches
    from django.test import Client

    task, phase, viewers, first = seed()
    path = f"/tasks/{task.slug}/"
    figures = []
    for rows in sorted(int(n) for n in args.rows.split(",")):
        grow(phase, first, rows)
        for role, user in viewers.items():
            client = Client()
            if user is not None:
                client.force_login(user)
            caches["fragments"].clear()  # as the first request after a move finds it (the live files not written)
            queries, cold = asked(client, path)
            warm = [asked(client, path) for _ in range(args.repeat)]
            figures.append(
                {
                    "rows": rows,
                    "role": role,
                    "queries_first": queries,
                    "queries_kept": max(q for q, _ in warm),
                    "first_cpu_ms": round(cold, 1),
                    "kept_cpu_ms": round(statistics.median(ms for _, ms in warm), 1),
                }
            )
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{'rows':>5} {'role':>10} {'queries':>8} {'kept':>5} {'first ms':>9} {'kept ms':>8}")
    for f in figures:
        print(
            f"{f['rows']:>5} {f['role']:>10} {f['queries_first']:>8} {f['queries_kept']:>5} "
            f"{f['first_cpu_ms']:>9} {f['kept_cpu_ms']:>8}"
        )


if __name__ == "__main__":
    main()
