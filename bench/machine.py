"""What else ran on the machine during a measurement (bench/platform_load.py).

The cores are shared with other work, which inflates latency. The load average counts
the bench's own processes too, so the bench also prints the CPU time the machine spent
outside them during the run: the time all cores ran processes (/proc/stat) less that of
the bench, its children (wrk), the web and worker process trees it started and the
PostgreSQL backends connected to its database.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

from busy_workers import TICKS, tree_cpu_seconds


def machine_busy_seconds() -> float:
    """CPU seconds all cores spent running processes since boot: user, nice, system and
    steal, not idle, iowait or interrupts (mostly the bench's own loopback traffic,
    charged to no process)."""
    user, nice, system, _idle, _iowait, _irq, _softirq, steal = (
        int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    )
    return (user + nice + system + steal) / TICKS


def backend_pids(database_url: str) -> list[int]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as connection:
        return [
            pid
            for (pid,) in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        ]


class OthersCpu:
    """``with OthersCpu(database_url, pids) as others: ...``, then ``others.seconds``:
    the machine's busy CPU seconds during the block that were not the bench's."""

    def __init__(self, database_url: str, pids):
        self.database_url, self.pids = database_url, pids  # pids: a callable, the trees started so far

    def ours(self, backends: list[int]) -> float:
        own = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return sum(u.ru_utime + u.ru_stime for u in own) + sum(
            tree_cpu_seconds(pid) for pid in [*self.pids(), *backends]
        )

    def __enter__(self) -> OthersCpu:
        self.backends = backend_pids(self.database_url)
        self.machine, self.own = machine_busy_seconds(), self.ours(self.backends)
        return self

    def __exit__(self, *_) -> None:
        # backends that came and went during the block are missed (counted as others');
        # the web's and workers' connections persist
        self.seconds = max(0.0, machine_busy_seconds() - self.machine - (self.ours(self.backends) - self.own))


def cores() -> int:
    return os.cpu_count() or 1
