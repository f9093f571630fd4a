"""A burst of uploads on the real stack while workers are killed and the broker restarts.

Starts a private Redis (port 6390, not the shared one the tests use), a fresh PostgreSQL
database on 127.0.0.1:5432, and two Celery workers (prefork, one process each, as in
docker/compose.yaml); uploads ``--uploads`` files from ``--teams`` teams (the SEEDA
subset's first 40 lines, 5 systems, ERRANT and GoToScorer), SIGKILLs a random worker
every ``--kill-every`` seconds (and starts a new one), restarts Redis once, runs the
sweeper as beat would, and waits until nothing moves. Then prints:

    submitted / scored / failed / stuck (queued or running at the end) /
    lost (accepted but no row) / double-counted (results or pool counts twice)

    python bench/burst.py [--uploads 30] [--kills 6] [--kill-every 8]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from busy_workers import celery_worker

ROOT = Path(__file__).resolve().parent.parent
REDIS_PORT = 6390
DATABASE = f"gec_burst_{os.getpid()}"
SEEDA = ROOT.parent / "shared" / "data" / "seeda"
OUTPUTS = SEEDA / "seeda" / "outputs" / "subset"
SYSTEMS = ("T5", "BART", "GECToR-BERT", "PIE", "UEDIN-MS")
LINES = 40
STUCK_AFTER = 20


def head(path: Path) -> str:
    return "".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[:LINES])


class Stack:
    """The private Redis and the worker processes, each in its own process group."""

    def __init__(self, tmp: Path, env: dict):
        self.tmp, self.env = tmp, env
        self.redis: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(REDIS_PORT), "--dir", str(self.tmp), "--appendonly", "yes", "--save", ""],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(1)

    def restart_redis(self) -> None:
        os.killpg(self.redis.pid, signal.SIGKILL)  # a crash, not a clean shutdown
        self.redis.wait()
        self.start_redis()

    def start_worker(self) -> None:
        name = f"burst{len(self.workers)}"
        self.workers.append(
            celery_worker(
                self.env,
                *("--pool=prefork", "--concurrency=1", "-Q", "celery,scoring-large", "-n", f"{name}@%h"),
                *("--without-gossip", "--without-mingle"),
                log=self.tmp / f"worker{len(self.workers)}.log",
            )
        )

    def kill_random_worker(self, rng: random.Random) -> None:
        alive = [w for w in self.workers if w.poll() is None]
        victim = rng.choice(alive)
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
        self.start_worker()

    def stop(self) -> None:
        for process in [*self.workers, self.redis]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uploads", type=int, default=30)
    parser.add_argument("--teams", type=int, default=6)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--kill-every", type=float, default=8.0)
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()
    rng = random.Random(14)
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {DATABASE}"], check=True)
    tmp = Path(tempfile.mkdtemp(prefix="gec-burst-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
        "SECRET_KEY": "burst",
        "DEBUG": "1",
        "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "GEC_STUCK_AFTER": str(STUCK_AFTER),
        "GEC_VAR_DIR": str(tmp / "var"),
    }
    os.environ.update(env)
    stack = Stack(tmp, env)
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        stack.start_redis()
        report(run_burst(stack, args, rng), args)
    finally:
        stack.stop()
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)"],
            check=False,
        )
        shutil.rmtree(tmp, ignore_errors=True)


def run_burst(stack: Stack, args, rng: random.Random) -> dict:
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.contrib.auth.models import User

    from leaderboard.models import Submission
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.jobs.sweeper import sweep_stuck_submissions
    from leaderboard.services.submissions.intake import accept_submission

    task = create_task(
        "burst",
        title="Burst",
        source=head(OUTPUTS / "INPUT.txt"),
        metrics=["errant", "gotoscorer"],
        references=[(p.stem, head(p)) for p in (SEEDA / "derived" / "subset").glob("REF[01].txt")],
    )
    phase = task.phases.get()
    phase.max_total = phase.max_per_day = None
    phase.save()
    users = [User.objects.create_user(f"team{k}") for k in range(args.teams)]
    stack.start_worker()
    stack.start_worker()
    accepted, kills, restarted = [], 0, False
    started = time.monotonic()
    next_kill = started + args.kill_every
    for k in range(args.uploads):
        system = SYSTEMS[k % len(SYSTEMS)]
        submission = accept_submission(
            phase,
            users[k % args.teams],
            system_name=f"{system}-{k}",
            filename=f"{system}.txt",
            content=head(OUTPUTS / f"{system}.txt").encode(),
        )
        accepted.append(submission.pk)
        time.sleep(0.3)
    print(f"{len(accepted)} uploads accepted in {time.monotonic() - started:.1f} s", flush=True)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        now = time.monotonic()
        if kills < args.kills and now >= next_kill:
            stack.kill_random_worker(rng)
            kills += 1
            next_kill = now + args.kill_every
        if not restarted and kills >= args.kills // 2:
            stack.restart_redis()
            restarted = True
        sweep_stuck_submissions()  # what beat runs every GEC_SWEEP_EVERY seconds
        open_jobs = Submission.objects.filter(pk__in=accepted, status__in=["queued", "running"]).count()
        if open_jobs == 0 and kills >= args.kills:
            break
        time.sleep(2)
    return {
        "accepted": accepted,
        "kills": kills,
        "redis_restarts": int(restarted),
        "seconds": time.monotonic() - started,
    }


def report(outcome: dict, args) -> None:
    from django.db.models import Count

    from leaderboard.models import MetricResult, Pool, Submission
    from leaderboard.services.pool import membership as pool

    accepted = outcome["accepted"]
    rows = Submission.objects.filter(pk__in=accepted)
    by_status = dict(rows.values_list("status").annotate(n=Count("pk")))
    twice = (
        MetricResult.objects.filter(submission_id__in=accepted)
        .values("submission_id", "metric")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )
    phase_id = rows.first().phase_id
    pool_size = Pool.objects.get(phase_id=phase_id).size
    counts_exact = pool.stored_counts(phase_id) == pool.counts_from_members(phase_id)
    losses = sum(rows.values_list("worker_losses", flat=True))
    print(
        f"{len(accepted)} uploads, 2 workers, {outcome['kills']} worker kills, {outcome['redis_restarts']} "
        f"Redis restart, {outcome['seconds']:.0f} s"
    )
    print(
        f"submitted {len(accepted)}  scored {by_status.get('scored', 0)}  failed {by_status.get('failed', 0)}  "
        f"stuck {by_status.get('queued', 0) + by_status.get('running', 0)}  lost {len(accepted) - rows.count()}  "
        f"double-counted {twice + (0 if counts_exact else 1)}"
    )
    print(
        f"pool size {pool_size} (members: each team's latest scored), pool counts equal a recount: "
        f"{counts_exact}, worker losses recorded {losses}"
    )
    for error, cause in rows.filter(status="failed").values_list("error", "failure_cause"):
        print(f"  failed ({cause}): {error[:120]}")


if __name__ == "__main__":
    main()
