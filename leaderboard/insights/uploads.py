"""An upload to a phase of several corpora shown whole: the team's entry as it stood once
the upload was in (per corpus its latest output so far, :func:`leaderboard.standings.entry_snapshots`),
each corpus's scores, the upload each came in, and the macro average over them, as the
board computes it. The web pages, the API and gec-submit show the same figures."""

from __future__ import annotations

from ..models import MetricResult, Phase, Submission
from ..standings import ScoresWithoutTables, entry_outputs, entry_snapshots, macro_average, summary


def is_upload_of_corpora(submission: Submission) -> bool:
    return submission.parent_id is None and submission.phase.is_multi_corpus


def upload_entry(upload: Submission) -> dict:
    """``{"scores": macro average ({} while the entry misses a corpus or the upload is not
    scored), "corpora": {corpus: scores or None}, "corpus_uploads": {corpus: upload id or
    None}}`` of ``upload`` (an upload to a phase of several corpora). Who may see it is
    the caller's question (:func:`leaderboard.access.may_see_scores`)."""
    corpora = dict(Phase.every.filter(parent_id=upload.phase_id).order_by("pk").values_list("pk", "corpus"))
    outputs = entry_outputs(upload.phase_id, upload=upload)
    entry = entry_snapshots(outputs).get(upload.pk, {})
    came_in = {o.output_id: o.upload_id for o in outputs}
    scores: dict[int, dict] = {output: {} for output in entry.values()}
    results = MetricResult.objects.filter(submission_id__in=list(entry.values())).annotate(
        summary=ScoresWithoutTables()
    )
    for output, metric, value in results.values_list("submission_id", "metric", "summary"):
        scores[output][metric] = summary(value)
    by_corpus = {name: scores[entry[pk]] if pk in entry else None for pk, name in corpora.items()}
    uploads = {name: came_in[entry[pk]] if pk in entry else None for pk, name in corpora.items()}
    return {
        "scores": macro_average(list(by_corpus.values())) if entry else {},
        "corpora": by_corpus,
        "corpus_uploads": uploads,
    }
