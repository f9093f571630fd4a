"""Two Celery workers kept busy scoring CoNLL-size uploads while the board is measured
(bench/platform_load.py): the realistic case is a board polled while scores land.

The workers run as docker/compose.yaml's ``worker`` service runs them (prefork, one
process each, queue ``celery``, ``GEC_WORKER_NICE`` from the environment), on a private
Redis so no other checkout's broker is touched. :class:`BusyCheck` samples, while the
load runs, how many of the queued jobs are running and still waiting, and the CPU time
each worker's processes used, so the bench can say whether they were busy throughout
and what share of the cores scoring kept.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def celery_worker(env: dict, *options: str, log: Path | None = None) -> subprocess.Popen:
    """``celery -A leaderboard worker`` with ``options``, leading its own session (so a stop
    takes its children), its output to ``log`` (or nowhere)."""
    out = open(log, "wb") if log else subprocess.DEVNULL
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "leaderboard", "worker", *options],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT if log else subprocess.DEVNULL,
        start_new_session=True,
    )


def start_redis(tmp: Path) -> tuple[subprocess.Popen, str]:
    """A throw-away redis-server (no persistence); returns it and its broker URL."""
    port = free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(tmp),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("redis-server did not come up")


def stop(process: subprocess.Popen | None) -> None:
    """Kill a process this bench started, with its process group (prefork children)."""
    if process is not None and process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its live descendants (/proc)."""
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
            stack += [int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split()]
        except (OSError, IndexError):
            continue
    return total


class ScoringWorkers:
    """``count`` ``celery -A leaderboard worker --concurrency 1 --queues celery`` processes."""

    def __init__(self, env: dict, count: int, log_dir: Path):
        self.processes = []
        for k in range(count):
            self.processes.append(
                celery_worker(
                    env,
                    *("--concurrency", "1", "--loglevel", "WARNING", "--queues", "celery", "-n", f"bench{k}@%h"),
                    log=log_dir / f"worker{k}.log",
                )
            )

    def cpu_seconds(self) -> list[float]:
        return [tree_cpu_seconds(p.pid) for p in self.processes]

    def nice(self) -> list[str]:
        """Each worker's pool process (its first child): "nice N, group M", M being its
        autogroup's nice (what ranks it against the web's group; leaderboard/celery.py)."""
        values = []
        for process in self.processes:
            children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
            pid = int(children[0]) if children else process.pid
            group = Path(f"/proc/{pid}/autogroup")
            values.append(
                f"nice {os.getpriority(os.PRIO_PROCESS, pid)}, group "
                f"{group.read_text().split()[-1] if group.exists() else '-'}"
            )
        return values

    def stop(self) -> None:
        for process in self.processes:
            stop(process)


def queue_jobs(phase, teams: list, files: list[Path], count: int) -> list[int]:
    """``count`` uploads of real system outputs, team after team, queued on the broker by
    the same service an API upload calls (limits off, as for the organizers' back-fills:
    the seeded teams have used theirs)."""
    from django.test.utils import override_settings

    from leaderboard.services.submissions.intake import accept_submission

    ids = []
    with override_settings(GEC_TASK_MODE="celery"):
        for k in range(count):
            path = files[k % len(files)]
            submission = accept_submission(
                phase,
                None,
                team=teams[k % len(teams)],
                system_name=f"{path.stem}-busy-{k}",
                filename=path.name,
                content=path.read_bytes(),
                enforce_limits=False,
            )
            ids.append(submission.pk)
    return ids


STATUS_COUNTS = "SELECT status, count(*) FROM leaderboard_submission WHERE id = ANY(%s) GROUP BY status"


def job_counts(connection, ids: list[int]) -> dict[str, int]:
    """How many of ``ids`` are in each status now (a psycopg connection of the bench's own)."""
    return {
        "queued": 0,
        "running": 0,
        "scored": 0,
        "failed": 0,
        **dict(connection.execute(STATUS_COUNTS, [ids]).fetchall()),
    }


def wait_until_warm(database_url: str, ids: list[int], workers: int, timeout: float = 300) -> dict[str, int]:
    """Until each worker has finished a job (spaCy and the dataset loaded) and all are on the next."""
    import psycopg

    started = time.monotonic()
    with psycopg.connect(database_url, autocommit=True) as connection:
        while time.monotonic() - started < timeout:
            counts = job_counts(connection, ids)
            if counts["scored"] + counts["failed"] >= workers and counts["running"] >= workers:
                return counts
            time.sleep(0.5)
    raise RuntimeError(f"the workers did not warm up in {timeout:.0f} s: {counts}")


class BusyCheck(threading.Thread):
    """Samples the jobs' statuses every ``every`` seconds while the load runs."""

    def __init__(self, database_url: str, ids: list[int], workers: ScoringWorkers, every: float = 0.25):
        super().__init__(daemon=True)
        self.database_url, self.ids, self.workers, self.every = database_url, ids, workers, every
        self.samples: list[dict[str, int]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            while not self.halt.is_set():
                self.samples.append(job_counts(connection, self.ids))
                self.halt.wait(self.every)

    def __enter__(self) -> BusyCheck:
        self.cpu_before, self.started = self.workers.cpu_seconds(), time.monotonic()
        self.start()
        return self

    def __exit__(self, *_) -> None:
        self.halt.set()
        self.join()
        self.seconds = time.monotonic() - self.started
        self.cpu = [after - before for before, after in zip(self.cpu_before, self.workers.cpu_seconds(), strict=True)]

    def summary(self) -> dict:
        """Busy throughout: the queue always held a next job for every worker (prefetch 1,
        so none waited for work) and none died. "Running" undercounts: a job's pool join
        comes after its status says scored."""
        count = len(self.workers.processes)
        first, last = self.samples[0], self.samples[-1]
        fewest = min(s["queued"] for s in self.samples)
        return {
            "samples": len(self.samples),
            "all_running": sum(s["running"] >= count for s in self.samples),
            "min_queued": fewest,
            "finished": last["scored"] + last["failed"] - first["scored"] - first["failed"],
            "failed": last["failed"],
            "cpu": [round(c, 1) for c in self.cpu],
            "seconds": round(self.seconds, 1),
            "busy": fewest >= count and all(p.poll() is None for p in self.workers.processes),
        }
