"""``manage.py lm_demo``: Scribendi added to the MultiGEC demo and its uploads rescored,
saying first what it will read and how long that takes, with progress every few seconds.

The estimate is measured, not assumed: the model reads its first batches here and the
rate they ran at, times the tokens the model will read (each changed line of each upload
and its source, once per corpus: ``scoring.metrics.scribendi``), gives the minutes. By
default it scores the uploads, in order (each system on every corpus in turn), that fit
8 minutes at that rate (10 with the start-up), passing over one that does not, and says
which (``--minutes``; 0 for all of them: the whole demo is about 424,000 tokens, hours on
a 2-core CPU without bfloat16, docs/benchmarks.md). A stop
(Ctrl-C, SIGTERM) leaves the task as it was: its metrics restored, the Scribendi results
of this run removed, and the upload being scored back to ``scored`` with its old rows (its
results are written in one transaction, so none of this run's are half there).
"""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field

from django.core.management.base import BaseCommand, CommandError

import scoring
from scoring.lm import runtime

from ...models import MetricResult, SharedTask, Submission
from ...services.data.datasets import load_dataset
from ...services.scoring_jobs.submission import score_submission

SLUG = "multigec-demo"
METRIC = "scribendi"
PROGRESS_EVERY = 5.0  # seconds between progress lines
CALIBRATION_SECONDS = 4.0  # of forward passes that measure the rate
BUDGET_MINUTES = 8.0  # the uploads scored by default: those that fit, at the rate measured (start-up aside)


def within_budget(costs: list[int], rate: float, minutes: float) -> list[int]:
    """Which uploads (indices, in order; each costing ``costs[k]`` tokens) fit ``minutes``
    at ``rate`` tokens a second, taken in turn and passed over when one does not fit (a
    cheaper one further on may); all of them for ``minutes`` <= 0."""
    if minutes <= 0:
        return list(range(len(costs)))
    chosen, spent = [], 0
    for k, cost in enumerate(costs):
        if (spent + cost) / rate <= minutes * 60:
            chosen.append(k)
            spent += cost
    return chosen


@dataclass
class Progress:
    """What the progress lines say: the upload being scored, since when, and whether it ended."""

    started: float
    k: int = 0
    name: str = ""
    done: threading.Event = field(default_factory=threading.Event)


class Stopped(Exception):
    """SIGTERM, turned into an exception so that the run unwinds as after Ctrl-C."""


def stop(_signal, _frame):
    raise Stopped


class Command(BaseCommand):
    help = "Add Scribendi to the MultiGEC demo and rescore it, with a measured estimate and progress."

    def add_arguments(self, parser):
        parser.add_argument("--task", default=SLUG, help=f"the task's slug (default {SLUG})")
        parser.add_argument(
            "--minutes",
            type=float,
            default=BUDGET_MINUTES,
            help=f"score the uploads (in order) that fit this many minutes at the measured rate, at least one "
            f"(default {BUDGET_MINUTES:g}); 0: every upload",
        )

    def handle(self, task: str, minutes: float, **_):
        slug = task
        found = SharedTask.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no task {slug}: run manage.py load_demo first")
        uploads = list(
            Submission.objects.filter(Submission.scored_alone(), phase__task=found)
            .exclude(status=Submission.Status.QUEUED)
            .select_related("phase")
            .order_by("pk")
        )
        metric = scoring.build_metrics([METRIC], scoring.ScoringOptions())[0]
        costs = self.tokens_to_read(metric, uploads)
        rate = self.measured_rate(metric, uploads)
        tokens = sum(costs)
        dtype = getattr(metric, "dtype", "?")
        self.stdout.write(
            f"lm-demo: Scribendi ({runtime.model_directory(runtime.LM_MODEL)}, {dtype}) on {len(uploads)} "
            f"corpus files of {slug}: the model reads {tokens:,} tokens (changed lines and their sources); at "
            f"{rate:.0f} tokens/s, measured just now, about {tokens / rate / 60:.1f} minutes",
            ending="\n",
        )
        chosen = within_budget(costs, rate, minutes)
        tokens_chosen = sum(costs[k] for k in chosen)
        if len(chosen) < len(uploads):
            self.stdout.write(
                f"lm-demo: within {minutes:g} minutes: {len(chosen)} of them ({tokens_chosen:,} tokens, about "
                f"{tokens_chosen / rate / 60:.1f} minutes); --minutes 0 scores all"
            )
        if any(costs) and not tokens_chosen:
            cheapest = min(cost for cost in costs if cost)
            self.stdout.write(
                f"lm-demo: no upload the model reads fits {minutes:g} minutes at this rate (the cheapest needs about "
                f"{cheapest / rate / 60:.0f}): only unchanged ones are scored; a GPU (GEC_LM_DEVICE=auto) or "
                "--minutes 0 does the rest"
            )
        self.stdout.flush()
        self.rescore(found, [uploads[k] for k in chosen], tokens_chosen / rate)

    # -- what it costs ---------------------------------------------------------------------
    def tokens_to_read(self, metric, uploads: list[Submission]) -> list[int]:
        """The tokens the model reads for each upload, in order: its changed lines, and the
        sources of those lines that no earlier upload of its corpus changed (each source is
        read once per dataset)."""
        from scoring.lm.scribendi import token_ids
        from scoring.metrics.scribendi import texts

        loaded, costs = metric._model(), []
        sources_read: dict[int, set[int]] = {}
        for upload in uploads:
            dataset = load_dataset(upload.phase.gold_id)
            hypothesis = scoring.read_hypothesis(
                dataset, bytes(upload.content), upload.system_name, filename=upload.filename
            )
            sources, outputs = texts(dataset), texts(dataset, hypothesis)
            changed = [i for i, (s, o) in enumerate(zip(sources, outputs)) if s != o]
            read = sources_read.setdefault(upload.phase.gold_id, set())
            new_sources = [sources[i] for i in changed if i not in read]
            read.update(changed)
            texts_read = [outputs[i] for i in changed] + new_sources
            costs.append(sum(map(len, token_ids(loaded, texts_read))))
        return costs

    def measured_rate(self, metric, uploads: list[Submission]) -> float:
        """Tokens a second the model reads here now: forward passes over the first corpus's
        sources, in the metric's batches, for about :data:`CALIBRATION_SECONDS`."""
        from scoring.lm.scribendi import perplexities_of
        from scoring.metrics.scribendi import texts

        sources = texts(load_dataset(uploads[0].phase.gold_id))
        loaded = metric._model()  # loaded before the clock starts: the rate is the forward passes'
        read = 0

        def count(tokens: int) -> None:
            nonlocal read
            read += tokens

        started, k = time.perf_counter(), 0
        while time.perf_counter() - started < CALIBRATION_SECONDS and k < len(sources):
            batch = sources[k : k + metric.batch_size]  # one of the script's groups, tokenized alone
            perplexities_of(loaded, batch, range(len(batch)), metric.batch_size, runtime.LM_MODEL, progress=count)
            k += metric.batch_size
        return max(read / (time.perf_counter() - started), 1.0)

    # -- the run ---------------------------------------------------------------------------
    def rescore(self, task: SharedTask, uploads: list[Submission], expected: float) -> None:
        metrics_before = list(task.metrics)
        statuses = {u.pk: u.status for u in uploads}
        had = set(
            MetricResult.objects.filter(submission__in=uploads, metric=METRIC).values_list("submission_id", flat=True)
        )
        state = Progress(started=time.monotonic())
        ticker = threading.Thread(target=self.tick, args=(state, len(uploads), expected), daemon=True)
        previous = signal.signal(signal.SIGTERM, stop)
        try:
            if METRIC not in task.metrics:
                task.metrics = [*task.metrics, METRIC]
                task.save(update_fields=["metrics"])
            ticker.start()
            for k, upload in enumerate(uploads, start=1):
                state.k, state.name = k, f"#{upload.pk} {upload.system_name} ({upload.phase.name})"
                score_submission(upload.pk, force=True)
        except (KeyboardInterrupt, Stopped):
            state.done.set()
            self.put_back(task, metrics_before, statuses, had)
            raise CommandError("lm-demo: stopped; the task is as it was (metrics, results, upload statuses)") from None
        finally:
            state.done.set()
            signal.signal(signal.SIGTERM, previous)
        self.stdout.write(f"lm-demo: done in {time.monotonic() - state.started:.0f} s")

    def tick(self, state: Progress, n: int, expected: float) -> None:
        while not state.done.wait(PROGRESS_EVERY):
            elapsed = time.monotonic() - state.started
            self.stdout.write(f"lm-demo: [{state.k}/{n}] {state.name}: {elapsed:.0f} s of about {expected:.0f} s")
            self.stdout.flush()

    def put_back(self, task: SharedTask, metrics: list[str], statuses: dict[int, str], had: set[int]) -> None:
        """The task's metrics, its uploads' statuses and Scribendi rows as before the run."""
        task.metrics = metrics
        task.save(update_fields=["metrics"])
        MetricResult.objects.filter(submission_id__in=list(statuses), metric=METRIC).exclude(
            submission_id__in=had
        ).delete()
        for pk in Submission.objects.filter(pk__in=list(statuses), status=Submission.Status.RUNNING).values_list(
            "pk", flat=True
        ):
            Submission.objects.filter(pk=pk).update(status=statuses[pk], progress=1.0)
