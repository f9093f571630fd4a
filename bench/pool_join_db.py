"""A GoToScorer pool join and leave on PostgreSQL at CoNLL-14 size: the platform's path.

Gold chunks: the 60,576 chunks of the full 1,312-sentence CoNLL-2014 test set
(reference 0 of ``derived/full/ref_par.m2``). N = --members synthetic members (outcome
vectors like the 15 real SEEDA systems', as in ``pool_update.py``) are written straight
into the database with their f_i (or n_i, on code from before f_i). Then one newcomer
joins and leaves, each through ``services.pool.sync_pool`` in its own transaction: n_i
(f_i) updated, N set, every member's GoToScorer scores re-derived and written. Prints the
median seconds of the first sync in a fresh process, a join, a leave, and a join after
another worker changed the pool (this process then catches up on one member), and checks
the stored scores against a fresh computation. The machine is shared, so besides wall
time it prints CPU time, which stays stable under load: this Python process's and that of
its PostgreSQL backend (from /proc), and their sum.

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench_pool``, dropped and re-created).

    python bench/pool_join_db.py [--members 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from fresh_database import JOBS_SENT, fresh_database
from seeded_board import REF_M2, scored_entries

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DB_NAME = "gec_bench_pool"


def seed(members: int, rng: np.random.Generator):
    """A task on the M2 gold (no parsing), ``members`` scored members and one newcomer."""
    from django.db import connection
    from pool_update import synthetic_system

    from leaderboard.models import GoldChunk, MetricResult, Pool, PoolMember
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.pool import gotoscorer
    from scoring.gotoscorer import outcomes as outcome_bits

    task = create_task("pool-bench", m2=REF_M2.read_text(encoding="utf-8"), metrics=["gotoscorer"])
    phase = task.phases.get()
    chunks = list(GoldChunk.objects.filter(phase=phase).order_by("position").values_list("sentence", "modified"))
    gold = np.array([m for _, m in chunks])
    systems = [synthetic_system(gold, rng) for _ in range(members + 1)]
    submissions = scored_entries(phase, members + 1)
    newcomer = submissions[-1]
    sentence_ends = np.flatnonzero(np.diff([s for s, _ in chunks] + [-1])) + 1
    split = lambda flags: [outcome_bits.bits(part) for part in np.split(flags, sentence_ends[:-1])]  # noqa: E731
    statistics_of = lambda o: {  # noqa: E731
        "gold": split(gold),
        "modified": split(o.modified),
        "correct": split(o.correct),
        "ref": 0,
    }
    MetricResult.objects.bulk_create(
        [MetricResult(submission=s, metric="gotoscorer", statistics={}, scores={}) for s in submissions[:-1]]
        + [MetricResult(submission=newcomer, metric="gotoscorer", statistics=statistics_of(systems[-1]), scores={})]
    )
    pool = Pool.objects.get(phase=phase)
    PoolMember.objects.bulk_create(
        [
            PoolMember(
                pool=pool, submission=s, modified=gotoscorer.pack(o.modified), correct=gotoscorer.pack(o.correct)
            )
            for s, o in zip(submissions[:-1], systems[:-1])
        ]
    )
    n = sum(o.correct.astype(np.int64) for o in systems[:-1])
    field, values = ("failures", members - n) if hasattr(GoldChunk, "failures") else ("n", n)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE leaderboard_goldchunk AS g SET {field} = v.x FROM unnest(%s::int[], %s::int[]) AS v(p, x) "
            "WHERE g.phase_id = %s AND g.position = v.p",
            [list(range(len(gold))), values.tolist(), phase.pk],
        )
    Pool.objects.filter(pk=pool.pk).update(size=members)
    return phase, newcomer, gold, {s.pk: o for s, o in zip(submissions, systems)}


def backend_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend process."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(action) -> tuple[float, float, float]:
    """Wall, Python CPU and PostgreSQL backend CPU seconds of ``action``."""
    db, wall, cpu = backend_cpu(), time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu, backend_cpu() - db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    fresh_database(DB_NAME, GEC_POOL="all", **JOBS_SENT)  # the join alone, as in a worker
    from django.db import transaction

    from leaderboard.models import MetricResult, Submission
    from leaderboard.services.pool import membership as pool_service
    from scoring.gotoscorer import pool_scores

    phase, newcomer, gold, systems = seed(args.members, np.random.default_rng(2020))

    def set_status(status):
        Submission.objects.filter(pk=newcomer.pk).update(status=status)

    def sync():
        with transaction.atomic():
            assert pool_service.sync_pool(phase.pk)

    set_status(Submission.Status.FAILED)
    first = timed(lambda: (set_status(Submission.Status.SCORED), sync()))
    joins, leaves, catch_up = [], [], []
    for _ in range(args.repeat):
        leaves.append(timed(lambda: (set_status(Submission.Status.FAILED), sync())))
        joins.append(timed(lambda: (set_status(Submission.Status.SCORED), sync())))
    cache = getattr(pool_service, "_outcomes", None)
    if cache is None:  # since the member cache moved to services.pool.store
        cache = getattr(getattr(pool_service, "store", None), "_outcomes", {})
    stale = cache.get(phase.pk)
    for _ in range(args.repeat):
        leaves_before = timed(lambda: (set_status(Submission.Status.FAILED), sync()))
        if stale is not None:  # as if another worker had made the next join: this process saw the leave only
            stale_key = next(k for k in stale.members if k[1] != newcomer.pk)
            stale.remove(stale_key)
        catch_up.append(timed(lambda: (set_status(Submission.Status.SCORED), sync())))
        del leaves_before
    stored = dict(
        MetricResult.objects.filter(submission__pool_membership__isnull=False).values_list("submission_id", "scores")
    )
    fresh = pool_scores(gold, systems)
    exact = stored.keys() == fresh.keys() and all(
        stored[sid][k] == v for sid, scores in fresh.items() for k, v in scores.items()
    )
    median = lambda pairs, k: statistics.median(p[k] for p in pairs)  # noqa: E731
    print(
        f"PostgreSQL, {len(gold)} gold chunks, N = {args.members} (+1 joining); seconds, median of "
        f"{args.repeat}; CPU time stays stable under load"
    )
    print(f"{'step':<44} {'wall':>7} {'CPU py':>7} {'CPU pg':>7} {'CPU sum':>7}")
    rows = [
        ("first sync in a fresh process (join)", [first]),
        ("join + re-derive and write every score", joins),
        ("leave + re-derive and write every score", leaves),
        ("join after another worker changed the pool", catch_up),
    ]
    for label, runs in rows:
        print(
            f"{label:<44} {median(runs, 0):>7.3f} {median(runs, 1):>7.3f} {median(runs, 2):>7.3f} "
            f"{median(runs, 1) + median(runs, 2):>7.3f}"
        )
    print(f"stored scores equal a fresh pool computation: {exact}")


if __name__ == "__main__":
    main()
