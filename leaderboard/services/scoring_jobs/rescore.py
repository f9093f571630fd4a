"""Score every submission of a task again (after a scorer upgrade) and report changes."""

from __future__ import annotations

from collections.abc import Callable

from scoring import flatten

from ...models import MetricResult, SharedTask, Submission
from .submission import score_submission


def system_scores(submission_id: int) -> dict[str, dict]:
    return {
        r.metric: r.scores for r in MetricResult.objects.filter(submission_id=submission_id).only("metric", "scores")
    }


def rescore_task(
    task: SharedTask, *, report: Callable[[str], None] = print, progress: Callable[[float], None] = lambda _done: None
) -> dict[int, dict[str, tuple]]:
    """Rescore inline, one submission after another; ``{id: {path: (old, new)}}`` of what moved.

    Pool metrics move for every member whenever one member's outcomes move, so the
    comparison is taken after all submissions are done.
    """
    submissions = list(
        Submission.objects.filter(Submission.scored_alone(), phase__task=task)
        .exclude(status=Submission.Status.QUEUED)
        .order_by("pk")
    )
    before = {s.pk: flatten(system_scores(s.pk)) for s in submissions}
    for k, submission in enumerate(submissions, start=1):
        status = score_submission(submission.pk, force=True)
        report(f"[{k}/{len(submissions)}] #{submission.pk} {submission.system_name}: {status}")
        progress(k / len(submissions))
    changes = {}
    for submission in submissions:
        after = flatten(system_scores(submission.pk))
        moved: dict[str, tuple[float | None, float | None]] = {
            path: (before[submission.pk].get(path), value)
            for path, value in after.items()
            if before[submission.pk].get(path) != value
        }
        moved.update({path: (value, None) for path, value in before[submission.pk].items() if path not in after})
        if moved:
            changes[submission.pk] = moved
    return changes
