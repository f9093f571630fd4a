"""One submission's results sentence by sentence, from its stored statistics.

A row per source line with what each metric's expensive step stored for it, as numbers
a participant can sort and join with their own files by line:

* ERRANT (cs): TP/FP/FN and P/R/F of the line against the reference ERRANT's corpus
  score chose for it (the greedy choice of ``errant_compare``), so the rows sum to the
  corpus counts; ``errant ref`` is that reference's index.
* CLEME2.0 (else CLEME): the line's chunks by outcome, TP / FP_ne / FP_un / FN, under
  the independent assumption (Ye et al., 2024, section 3).
* GoToScorer: the gold chunks that needed a correction, how many of those the system
  got right, and its changes judged wrong (Gotou et al., 2020, section 3), unweighted:
  the weights depend on the pool and change with it.
* USIM: the line's P/R/F.

Each row starts with the line's text: the source, the submission's output and, only for
those who may see the references (:func:`leaderboard.access.may_see_references`:
organizers, and everyone once the phase has ended with public results), each reference.
"""

from __future__ import annotations

import scoring
from scoring.errant.fscore import prf
from scoring.metrics.errant import greedy_choice

from ..models import MetricResult, Submission
from .cleme2 import CLASSES
from .exports import Table
from .per_type import CHUNK_METRICS


def output_lines(submission: Submission) -> list[str]:
    """The submission's corrected sentences as uploaded (an M2 upload: its edits applied)."""
    content = bytes(Submission.objects.values_list("content", flat=True).get(pk=submission.pk))
    if submission.filename.lower().endswith(scoring.M2_SUFFIXES):
        corpus = scoring.read_m2(content, name=submission.filename)
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
    the metrics' numbers (no column for a metric the task does not score)."""
    statistics = dict(MetricResult.objects.filter(submission=submission).values_list("metric", "statistics"))
    beta = submission.phase.task.beta
    n_lines = submission.phase.dataset.n_sentences
    text_names, texts = text_columns(submission, dataset, show_references)
    columns, parts = ["line", *text_names], [texts]
    if "errant" in statistics:
        columns += ["errant ref", "errant tp", "errant fp", "errant fn", "errant p", "errant r", "errant f"]
        parts.append(_errant(statistics["errant"], beta))
    chunks = next((name for name in CHUNK_METRICS if name in statistics), None)
    if chunks:
        columns += [f"{chunks} {c}" for c in CLASSES]
        parts.append(_chunks(statistics[chunks]))
    if "gotoscorer" in statistics:
        columns += ["gotoscorer needed", "gotoscorer corrected", "gotoscorer wrong"]
        parts.append(_gotoscorer(statistics["gotoscorer"]))
    if "usim" in statistics:
        columns += ["usim p", "usim r", "usim f"]
        parts.append([list(triple) for triple in statistics["usim"]["sentences"]])
    rows = [[line + 1, *(value for part in parts for value in part[line])] for line in range(n_lines)]
    scores = {k for k, c in enumerate(columns) if c.split()[-1] in ("p", "r", "f")}
    return Table(f"{submission.display_name}: per-sentence results (submission {submission.pk})", columns, rows, scores)


def _errant(statistics: dict, beta: float) -> list[list]:
    """``refs[i]`` lists the references tried on line i; none (a noop reference) is empty."""
    per_sentence = statistics["counts"]["cs"]
    rows = []
    for refs, candidates, j in zip(statistics["refs"], per_sentence, greedy_choice(per_sentence, beta)):
        tp, fp, fn = candidates[j][:3]
        rows.append([refs[j] if j < len(refs) else None, tp, fp, fn, *prf(tp, fp, fn, beta)])
    return rows


def _chunks(statistics: dict) -> list[list]:
    return [[sum(1 for r in records if r[6] == c) for c in CLASSES] for records in statistics["chunks"]]


def _gotoscorer(statistics: dict) -> list[list]:
    rows = []
    for gold, modified, correct in zip(statistics["gold"], statistics["modified"], statistics["correct"]):
        needed = [g == "1" for g in gold]
        right = [c == "1" for c in correct]
        changed = [m == "1" for m in modified]
        rows.append(
            [sum(needed), sum(n and r for n, r in zip(needed, right)), sum(m and not r for m, r in zip(changed, right))]
        )
    return rows
