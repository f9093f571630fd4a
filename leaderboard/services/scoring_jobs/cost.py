"""What scoring one file may cost, and where it runs (fair queues).

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

The budget is a bound; the queue is chosen by an *estimate* of the work (fair
queues): the changed tokens times the metrics, plus the similarity model's token-passes
(each changed line of ``t`` tokens is read ``t + 1`` times, ``t`` tokens each). A file
whose estimate passes ``GEC_HEAVY_JOB_SECONDS`` goes to the large queue with the
oversized ones, so an essay with similarity weights never sits in front of the
one-second uploads of the default queue. The coefficients were measured on this
platform's 2-core host (docs/benchmarks.md): CoNLL-14 (1,312 lines) with ERRANT and
GoToScorer takes 1.6 s; the similarity model reads about 70,000 token-passes a second.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from django.conf import settings

import scoring

from ...models import Dataset, SharedTask, Submission

MODEL_LENGTH = 512  # word pieces the similarity model reads of a sentence


SECONDS_PER_1K_TOKENS_AND_METRIC = 0.08  # a changed token through one metric, measured (module docstring)
SECONDS_PER_M_TOKEN_PASSES = 15.0  # a million tokens read by the similarity model, measured
# A language model's reading of 1,000 words (whitespace tokens, as counted here) through 1 GB of
# weights on disk, in CPU seconds on the 2-core host: SmolLM2-135M (0.54 GB in float32) read 59
# subword tokens a CPU second in bfloat16, 2.8 to an Icelandic word (docs/benchmarks.md). A GPU
# is far faster; the budget is a bound, never above GEC_SCORING_TIME_LIMIT.
SECONDS_PER_1K_TOKENS_AND_GB = 90.0
UNSEEN_MODEL_WORK = 2.0  # an LM metric whose model this process cannot see: two passes of 1 GB


class ScoringCost(NamedTuple):
    tokens: int
    queue: str | None  # None: the default queue
    seconds: int  # the time budget
    estimate: float = 0.0  # the expected seconds of work, which chooses the queue


class ChangedLines(NamedTuple):
    tokens: int  # tokens on lines that differ from the source
    full_passes: float  # the similarity model's passes, in passes of its full length
    token_passes: int  # tokens the similarity model reads, all passes together


def cost_of(
    content: bytes, dataset_id: int, sim: bool = False, metrics: int = 1, model_work: float = 0.0
) -> ScoringCost:
    """``model_work``: GB of language-model weights each token goes through (the task's
    Scribendi, SOME, IMPARA: :func:`scoring.model_work`); > 0 sends the job to
    ``GEC_LM_QUEUE`` when one is set, and adds the model's reading of every token to the
    budget (on CPU: a GPU worker is faster, and a budget is a bound)."""
    tokens = len(content.split())
    changed = changed_lines(content, dataset_id)
    estimate = SECONDS_PER_1K_TOKENS_AND_METRIC * changed.tokens / 1000 * max(metrics, 1)
    seconds = settings.GEC_TIME_BUDGET_BASE + settings.GEC_TIME_BUDGET_PER_1K_TOKENS * tokens / 1000
    if sim:
        seconds += changed.full_passes * settings.GEC_TIME_BUDGET_SIM_PASS
        estimate += SECONDS_PER_M_TOKEN_PASSES * changed.token_passes / 1e6
    if model_work:
        lm_seconds = SECONDS_PER_1K_TOKENS_AND_GB * model_work * tokens / 1000
        seconds += 2 * lm_seconds
        estimate += lm_seconds
    large = (
        tokens > settings.GEC_LARGE_FILE_RATIO * max(source_tokens(dataset_id), 1)
        or estimate > settings.GEC_HEAVY_JOB_SECONDS
    )
    queue = settings.GEC_LARGE_QUEUE if large and settings.GEC_LARGE_QUEUE else None
    if model_work and settings.GEC_LM_QUEUE:
        queue = settings.GEC_LM_QUEUE  # only a worker that holds the model (a GPU's) takes it
    return ScoringCost(tokens, queue, int(min(seconds, settings.GEC_SCORING_TIME_LIMIT)), round(estimate, 2))


def changed_lines(content: bytes, dataset_id: int) -> ChangedLines:
    """What the lines that differ from the source will cost (one pass over the bytes)."""
    sources = source_line_hashes(dataset_id)
    tokens, passes, token_passes = 0, 0.0, 0
    for i, line in enumerate(content.split(b"\n")):
        words = line.split()
        if words and (i >= len(sources) or hash(b" ".join(words)) != sources[i]):
            window = min(len(words), MODEL_LENGTH)
            tokens += len(words)
            passes += (window + 1) * window / MODEL_LENGTH
            token_passes += (window + 1) * window
    return ChangedLines(tokens, passes, token_passes)


def submission_cost(submission_id: int) -> ScoringCost:
    content, dataset_id, sim, task_id = Submission.objects.values_list(
        "content", "phase__dataset_id", "phase__task__sim", "phase__task_id"
    ).get(pk=submission_id)
    names = SharedTask.objects.get(pk=task_id).metric_names()
    return cost_of(bytes(content), dataset_id, sim, metrics=len(names), model_work=language_model_work(tuple(names)))


@functools.lru_cache(maxsize=64)
def language_model_work(metric_names: tuple[str, ...]) -> float:
    """The task's LM metrics' model work (GB a token goes through), from the model directories
    this process sees; a process that does not see them (a web process beside a GPU worker)
    counts :data:`UNSEEN_MODEL_WORK` for each such metric, so the job still takes the LM lane."""
    lm_metrics = [name for name in metric_names if name in scoring.REGISTRY and scoring.REGISTRY[name].lane]
    return sum(scoring.model_work([name]) or UNSEEN_MODEL_WORK for name in lm_metrics)


@functools.lru_cache(maxsize=64)
def source_tokens(dataset_id: int) -> int:
    return len(Dataset.objects.values_list("source", flat=True).get(pk=dataset_id).split())


@functools.lru_cache(maxsize=16)
def source_line_hashes(dataset_id: int) -> tuple[int, ...]:
    """Each source line's hash, its tokens joined by one space (a few bytes a line: a
    budget estimate may take a line for unchanged on a hash collision, nothing worse)."""
    source = Dataset.objects.values_list("source", flat=True).get(pk=dataset_id)
    return tuple(hash(b" ".join(line.encode().split())) for line in source.split("\n"))
