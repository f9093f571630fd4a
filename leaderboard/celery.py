"""The Celery app: ``celery -A leaderboard worker`` and ``celery -A leaderboard beat``.

Configuration comes from Django settings (``CELERY_*``); the entry points live in
``leaderboard/tasks.py`` and only call service functions.
"""

import os
import resource
from pathlib import Path

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")

app = Celery("leaderboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["leaderboard"])


@worker_init.connect
def cap_worker_memory(**_) -> None:
    """Cap a worker's private memory at ``GEC_WORKER_MAX_MEMORY_MB`` (RLIMIT_DATA, which
    Linux applies to heap and anonymous mappings alike; prefork children inherit it), so
    a file that needs more raises MemoryError in its own job (failed, the file's fault)
    instead of the host's OOM killer choosing a victim. A job that dies anyway, in C
    code, counts as a worker loss (services/scoring_jobs/submission.py)."""
    from django.conf import settings

    megabytes = settings.GEC_WORKER_MAX_MEMORY_MB
    if megabytes:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, resource.getrlimit(resource.RLIMIT_DATA)[1]))


@worker_init.connect
def lower_worker_priority(**_) -> None:
    """Run scoring at ``GEC_WORKER_NICE`` so the web comes first on shared cores: a poll of
    the board costs about a millisecond, a scoring job seconds of CPU, and under the
    kernel's fair scheduler every busy worker would otherwise take an equal share from the
    web. The default, 3, weighs a worker about half as much as a web process (526 against
    1024): a storm of requests still leaves scoring a floor (at 19 the workers
    got 3% of the cores and scored nothing). Prefork children inherit it; a value below
    the current one is left alone (raising needs privilege).

    A nice value only ranks processes of one scheduling group. A worker that leads its
    own session (systemd, ``setsid``) is its own group under Linux's autogroup, which
    shares the cores equally with the web's group whatever the nice values inside: that
    group's nice is lowered too (only the worker and its children are in it). Containers
    are cgroups, weighted by their ``cpu_shares`` (docker/compose.yaml)."""
    from django.conf import settings

    nice = min(settings.GEC_WORKER_NICE, 19)
    if nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    if nice > 0 and os.getsid(0) == os.getpid():
        lower_autogroup(nice)


def autogroup_nice() -> int | None:
    """The nice of this process's autogroup: ``/proc/self/autogroup`` reads "/autogroup-N nice V".
    None when the kernel has no autogroup or shows none (disabled, or a sandbox's empty file)."""
    try:
        return int(Path("/proc/self/autogroup").read_text().split()[-1])
    except (OSError, IndexError, ValueError):
        return None


def lower_autogroup(nice: int) -> None:
    """Lower this session's autogroup to ``nice``; never raise it, never fail the worker."""
    current = autogroup_nice()
    if current is not None and nice > current:
        try:
            Path("/proc/self/autogroup").write_text(str(nice))
        except OSError:
            pass
