"""Why a worker stopped while scoring: its own limits, or something outside.

A job whose process is killed says nothing; it is found later, ``running`` with a stale
heartbeat. The file is to blame only when the worker's own limits stopped it, and the
job's last heartbeat tells:

* time: the beat came after the job's time budget (:mod:`.cost`) had run out, so the
  time limit (the budget, then a hard limit a minute later) ended it;
* memory: the beat found the job's process holding at least ``GEC_MEMORY_NEAR_CEILING``
  of ``GEC_WORKER_MAX_MEMORY_MB``, the data size limit the worker sets itself
  (``leaderboard/celery.py``); a job that reaches it mostly ends in ``MemoryError``,
  caught as the file's, but C code may crash instead.

Anything else (the host's OOM killer choosing the worker for a neighbour's memory, a
deploy restarting it, a machine lost) is no fault of the file: the job runs again.
"""

from __future__ import annotations

import enum
import resource
from pathlib import Path

from django.conf import settings

from ...models import Submission
from .cost import submission_cost


class Loss(enum.Enum):
    TIME = "its time budget"
    MEMORY = "its memory ceiling"
    OUTSIDE = "outside"


def loss_cause(submission: Submission) -> Loss:
    """What stopped the worker of ``submission``, from its last heartbeat."""
    if submission.started_at and submission.heartbeat_at:
        ran = (submission.heartbeat_at - submission.started_at).total_seconds()
        if ran >= submission_cost(submission.pk).seconds:
            return Loss.TIME
    ceiling = settings.GEC_WORKER_MAX_MEMORY_MB
    if ceiling and submission.memory_mb >= settings.GEC_MEMORY_NEAR_CEILING * ceiling:
        return Loss.MEMORY
    return Loss.OUTSIDE


def process_memory_mb() -> int:
    """This process's data size (``VmData``: what the ceiling, RLIMIT_DATA, limits), in MB;
    its peak resident size where /proc is not there."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmData:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
