"""What scoring one file may cost, and where it runs (issue 14: fair queues).

Cost grows with the tokens of a file (each changed line is parsed, aligned and scored),
so a file's token count decides both its time budget (a base plus a share per thousand
tokens, never above ``GEC_SCORING_TIME_LIMIT``) and its queue: a file with many more
tokens than the task's source goes to ``GEC_LARGE_QUEUE``, which its own worker serves,
so one team's costly upload never waits in front of everyone else's.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from django.conf import settings

from ..models import Dataset, Submission


class ScoringCost(NamedTuple):
    tokens: int
    queue: str | None  # None: the default queue
    seconds: int  # the time budget


def cost_of(content: bytes, dataset_id: int) -> ScoringCost:
    tokens = len(content.split())
    large = settings.GEC_LARGE_QUEUE and tokens > settings.GEC_LARGE_FILE_RATIO * max(source_tokens(dataset_id), 1)
    seconds = settings.GEC_TIME_BUDGET_BASE + settings.GEC_TIME_BUDGET_PER_1K_TOKENS * tokens / 1000
    return ScoringCost(tokens, settings.GEC_LARGE_QUEUE if large else None, int(min(seconds, settings.GEC_SCORING_TIME_LIMIT)))


def submission_cost(submission_id: int) -> ScoringCost:
    content, dataset_id = Submission.objects.values_list("content", "phase__dataset_id").get(pk=submission_id)
    return cost_of(bytes(content), dataset_id)


@functools.lru_cache(maxsize=64)
def source_tokens(dataset_id: int) -> int:
    return len(Dataset.objects.values_list("source", flat=True).get(pk=dataset_id).split())
