"""One submission's results sentence by sentence, from its stored statistics.

A row per source line with what each metric's expensive step stored for it, as numbers
a participant can sort and join with their own files by line. Each metric declares its
own columns and fills them (``Metric.sentence_columns``, ``Metric.sentence_rows``: ERRANT's
and M2's counts against the reference their corpus score chose, so the rows sum to the
corpus counts; CLEME's and CLEME2.0's chunks by outcome; GoToScorer's unweighted chunk
counts; GLEU's and USIM's sentence scores): a new metric reaches this download without
a change here.

Each row starts with the line's text: the source, the submission's output and, only for
those who may see the references (:func:`leaderboard.access.may_see_references`:
organizers, and everyone once the phase has ended with public results), each reference.
"""

from __future__ import annotations

import scoring

from ..models import MetricResult, Submission
from ..models.shared_tasks import input_limits
from .exports import Table

SCORE_COLUMNS = ("p", "r", "f", "score")  # fractions in [0, 1], shown as percentages


def output_lines(submission: Submission) -> list[str]:
    """The submission's corrected sentences as uploaded (an M2 upload: its edits applied)."""
    content = bytes(Submission.objects.values_list("content", flat=True).get(pk=submission.pk))
    if submission.filename.lower().endswith(scoring.M2_SUFFIXES):
        corpus = scoring.read_m2(content, name=submission.filename, limits=input_limits())
        system = corpus.annotator_ids[0] if corpus.annotator_ids else 0
        return [
            " ".join(scoring.apply_edits(src, block.get(system) or []))
            for src, block in zip(corpus.sources, corpus.annotations)
        ]
    return content.decode("utf-8-sig").replace("\r\n", "\n").split("\n")


def text_columns(
    submission: Submission, dataset: scoring.Dataset, show_references: bool
) -> tuple[list[str], list[list[str]]]:
    """``source``, ``hypothesis`` and (when shown) one column per reference, per line."""
    outputs = output_lines(submission)
    columns = ["source", "hypothesis"]
    texts = [[" ".join(source), outputs[i] if i < len(outputs) else ""] for i, source in enumerate(dataset.sources)]
    if show_references:
        columns += [f"reference {r.name}" for r in dataset.references]
        for i, row in enumerate(texts):
            row += [" ".join(r.tokens[i]) for r in dataset.references]
    return columns, texts


def per_sentence_table(submission: Submission, dataset: scoring.Dataset, *, show_references: bool = False) -> Table:
    """Columns and one row per line: its text (``dataset``: the phase's prepared gold), then
    each scored metric's own columns, in registry order (none for a metric without any)."""
    statistics = dict(MetricResult.objects.filter(submission=submission).values_list("metric", "statistics"))
    beta = submission.phase.task.beta
    n_lines = submission.phase.gold.n_sentences
    text_names, texts = text_columns(submission, dataset, show_references)
    columns, parts = ["line", *text_names], [texts]
    for metric in scoring.metrics_named(statistics):
        if metric.sentence_columns:
            columns += [f"{metric.name} {column}" for column in metric.sentence_columns]
            parts.append(metric.sentence_rows(statistics[metric.name], beta))
    rows = [[line + 1, *(value for part in parts for value in part[line])] for line in range(n_lines)]
    scores = {k for k, c in enumerate(columns) if c.split()[-1] in SCORE_COLUMNS}
    return Table(f"{submission.display_name}: per-sentence results (submission {submission.pk})", columns, rows, scores)
