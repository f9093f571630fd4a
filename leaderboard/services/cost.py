"""What scoring one file may cost, and where it runs (issue 14: fair queues).

Cost grows with the tokens of a file (each changed line is parsed, aligned and scored),
so a file's token count decides both its time budget (a base plus a share per thousand
tokens, never above ``GEC_SCORING_TIME_LIMIT``) and its queue: a file with many more
tokens than the task's source goes to ``GEC_LARGE_QUEUE``, which its own worker serves,
so one team's costly upload never waits in front of everyone else's.

A task with similarity-weighted CLEME2.0 adds the forward passes of its model: one per
distinct X' (the source with one chunk corrected), each over at most the model's 512
word pieces. A changed line of ``t`` tokens has at most ``min(t, 512) + 1`` distinct X'
as the model sees them (X' that differ only past its length are one), each costing at
most ``GEC_TIME_BUDGET_SIM_PASS`` seconds scaled by its length, so the budget grows with
the square of a line up to the model's length, and linearly in the lines beyond.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from django.conf import settings

from ..models import Dataset, Submission

MODEL_LENGTH = 512  # word pieces the similarity model reads of a sentence


class ScoringCost(NamedTuple):
    tokens: int
    queue: str | None  # None: the default queue
    seconds: int  # the time budget


def cost_of(content: bytes, dataset_id: int, sim: bool = False) -> ScoringCost:
    tokens = len(content.split())
    large = settings.GEC_LARGE_QUEUE and tokens > settings.GEC_LARGE_FILE_RATIO * max(source_tokens(dataset_id), 1)
    seconds = settings.GEC_TIME_BUDGET_BASE + settings.GEC_TIME_BUDGET_PER_1K_TOKENS * tokens / 1000
    if sim:
        seconds += similarity_seconds(content, dataset_id)
    return ScoringCost(tokens, settings.GEC_LARGE_QUEUE if large else None, int(min(seconds, settings.GEC_SCORING_TIME_LIMIT)))


def similarity_seconds(content: bytes, dataset_id: int) -> float:
    """The most the similarity weights' forward passes may take on this file's changed lines."""
    sources = source_line_hashes(dataset_id)
    passes = 0.0
    for i, line in enumerate(content.split(b"\n")):
        words = line.split()
        if words and (i >= len(sources) or hash(b" ".join(words)) != sources[i]):
            window = min(len(words), MODEL_LENGTH)
            passes += (window + 1) * window / MODEL_LENGTH
    return passes * settings.GEC_TIME_BUDGET_SIM_PASS


def submission_cost(submission_id: int) -> ScoringCost:
    content, dataset_id, sim = Submission.objects.values_list("content", "phase__dataset_id", "phase__task__sim").get(pk=submission_id)
    return cost_of(bytes(content), dataset_id, sim)


@functools.lru_cache(maxsize=64)
def source_tokens(dataset_id: int) -> int:
    return len(Dataset.objects.values_list("source", flat=True).get(pk=dataset_id).split())


@functools.lru_cache(maxsize=16)
def source_line_hashes(dataset_id: int) -> tuple[int, ...]:
    """Each source line's hash, its tokens joined by one space (a few bytes a line: a
    budget estimate may take a line for unchanged on a hash collision, nothing worse)."""
    source = Dataset.objects.values_list("source", flat=True).get(pk=dataset_id)
    return tuple(hash(b" ".join(line.encode().split())) for line in source.split("\n"))
