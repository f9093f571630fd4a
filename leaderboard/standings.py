"""Read paths: the leaderboard of a phase, ranked by one metric path, cached per version.

A leaderboard is the phase's pool (the same systems GoToScorer weighs against each
other), each with its stored scores. The table only changes when the board's version
(leaderboard/board_version.py) does, so it is built once per (version, metric) and served
from the cache after that: that is what keeps the polled endpoint cheap.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db.models import F, Func, JSONField, Q

# What to rank by, and the number at a path, are the metric registry's answers.
from scoring import TABLE_PREFIX, flatten
from scoring import default_path as default_metric
from scoring import value_at as metric_value
from scoring import without_tables as summary

from .campaigns.board import builtin_cells, human_columns, with_human_columns
from .models import MetricResult, Phase, Submission


def headline_metric(task) -> str:
    """The path the task's board ranks by and its "best" counting rule means."""
    return task.headline_metric or default_metric(task.metric_names())


class ScoresWithoutTables(Func):
    """A result's ``scores`` without its top-level per-type tables: the stored
    ``scores_summary`` (migration 0026's trigger keeps it on PostgreSQL), so a board never
    detoasts the tables, nearly all of an ERRANT result's bytes (38 of 39 KB on CoNLL-14);
    a row without one has them dropped by PostgreSQL as it is read. :func:`summary` still
    drops nested tables (and all of them on SQLite, which reads ``scores``)."""

    template = "COALESCE(%(expressions)s)"
    output_field = JSONField()

    def __init__(self):
        super().__init__(F("scores_summary"), F("scores"))

    def as_postgresql(self, compiler, connection, **extra):
        stored, scores = (compiler.compile(expression)[0] for expression in self.source_expressions)
        tables = f"ARRAY(SELECT k FROM jsonb_object_keys({scores}) k WHERE starts_with(k, '{TABLE_PREFIX}'))"
        return f"COALESCE({stored}, {scores} - {tables})", []


def board_rows(phase_id: int, metric: str) -> list[dict]:
    corpora = dict(Phase.every.filter(parent_id=phase_id).order_by("pk").values_list("pk", "corpus"))
    if corpora:
        return corpus_board_rows(corpora, metric)
    members = list(
        Submission.objects.filter(phase_id=phase_id, pool_membership__isnull=False)
        .select_related("team")
        .only("pk", "system_name", "is_baseline", "scored_at", "team__name")
    )
    scores = stored_scores(members)
    return ranked(sorted((board_row(s, scores[s.pk], metric) for s in members), key=board_order))


def corpus_board_rows(corpora: dict[int, str], metric: str) -> list[dict]:
    """A phase of several corpora: one row per entry (a team's, or an organizers'
    baseline upload), its ``scores`` the macro average over the corpora
    (:func:`macro_average`), ``corpora`` each corpus's scores (None where the entry has
    no output for it) and ``corpus_uploads`` the upload each corpus's output came in.

    A team's entry is its outputs in the corpora's pools, which may come from several
    uploads (a zip, then one corpus at a time: :func:`entry_snapshots`); the row is named
    after the newest of them, the upload the phase's rule counted. A baseline upload, and
    every upload under ``GEC_POOL=all``, is a row of its own."""
    outputs = list(
        Submission.objects.filter(phase_id__in=list(corpora), pool_membership__isnull=False)
        .select_related("parent__team")
        .only(
            "pk",
            "phase_id",
            "parent_id",
            "team_id",
            "is_baseline",
            "parent__system_name",
            "parent__is_baseline",
            "parent__scored_at",
            "parent__team__name",
        )
    )
    scores = stored_scores(outputs)
    entries: dict[tuple, dict[str, Submission]] = {}
    for output in outputs:
        key = (
            ("upload", output.parent_id)
            if output.is_baseline or settings.GEC_POOL == "all"
            else ("team", output.team_id)
        )
        entries.setdefault(key, {})[corpora[output.phase_id]] = output
    rows = []
    for per_corpus in entries.values():
        upload = max((o.parent for o in per_corpus.values() if o.parent is not None), key=lambda u: u.pk)
        by_corpus = {name: scores[per_corpus[name].pk] if name in per_corpus else None for name in corpora.values()}
        uploads = {name: per_corpus[name].parent_id if name in per_corpus else None for name in corpora.values()}
        rows.append(
            {
                **board_row(upload, macro_average(list(by_corpus.values())), metric),
                "corpora": by_corpus,
                "corpus_uploads": uploads,
            }
        )
    return ranked(sorted(rows, key=board_order))


class EntryOutput(NamedTuple):
    """One scored corpus output of a phase of several corpora, as entries are made of."""

    output_id: int
    upload_id: int
    corpus_id: int  # the corpus phase
    team_id: int
    baseline: bool


def entry_outputs(phase_id: int, *, upload: Submission | None = None) -> list[EntryOutput]:
    """The scored corpus outputs of the phase's uploads that have ended scored and are
    not withdrawn, in upload order: what entries are built from. With ``upload``: only
    those its entry is made of (its team's, up to it; it too when withdrawn).

    Two indexed reads (the uploads, then their outputs) rather than one join: the
    planner's guess for the join, on rows not yet analysed, read every output against
    every upload (0.8 s for 1,650 files)."""
    uploads = Submission.objects.filter(phase_id=phase_id, status=Submission.Status.SCORED)
    if upload is None:
        uploads = uploads.filter(hidden=False)
    else:
        uploads = uploads.filter(Q(hidden=False) | Q(pk=upload.pk), team_id=upload.team_id, pk__lte=upload.pk)
    ids = list(uploads.values_list("pk", flat=True))
    outputs = Submission.objects.filter(parent_id__in=ids, status=Submission.Status.SCORED, hidden=False)
    rows = outputs.order_by("parent_id", "pk").values_list("pk", "parent_id", "phase_id", "team_id", "is_baseline")
    return [EntryOutput(*row) for row in rows]


def entry_snapshots(outputs: list[EntryOutput]) -> dict[int, dict[int, int]]:
    """``{upload id: {corpus phase id: output id}}``: each upload's *entry*, what its team
    had in each corpus once that upload was in. Per corpus, the team's latest scored
    output among its uploads up to this one: an upload of one corpus keeps the team's
    earlier outputs in the others. A baseline's entry is its own outputs."""
    current: dict[int, dict[int, int]] = {}  # per team, as uploads come in
    snapshots: dict[int, dict[int, int]] = {}
    for output in sorted(outputs, key=lambda o: (o.upload_id, o.output_id)):
        if output.baseline:
            snapshots.setdefault(output.upload_id, {})[output.corpus_id] = output.output_id
            continue
        team = current.setdefault(output.team_id, {})
        team[output.corpus_id] = output.output_id
        snapshots[output.upload_id] = dict(team)
    return snapshots


def macro_average(per_corpus: list[dict | None]) -> dict:
    """Every score averaged over the corpora, as MultiGEC-2025's overall ranking did; a
    score a corpus cannot have (a metric its language lacks) is averaged over the others.
    An upload missing a corpus has no average (``{}``): it ranks after the complete ones."""
    if not per_corpus or any(scores is None for scores in per_corpus):
        return {}
    values: dict[str, list[float]] = {}
    for scores in filter(None, per_corpus):  # none is None (checked above); an empty one adds nothing
        for path, value in flatten(scores).items():
            values.setdefault(path, []).append(value)
    average: dict = {}
    for path, numbers in values.items():
        *parents, leaf = path.split(".")
        node = average
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = sum(numbers) / len(numbers)
    return average


def stored_scores(submissions: Iterable[Submission | int]) -> dict[int, dict]:
    """``{submission id: {metric: scores without tables}}`` of submissions or their ids
    (the one reader of stored scores: boards, team pages, e-mails)."""
    ids = [s if isinstance(s, int) else s.pk for s in submissions]
    scores: dict[int, dict] = {pk: {} for pk in ids}
    results = MetricResult.objects.filter(submission_id__in=ids).annotate(summary=ScoresWithoutTables())
    for submission_id, name, value in results.values_list("submission_id", "metric", "summary"):
        scores[submission_id][name] = summary(value)
    return scores


def board_row(submission: Submission, scores: dict, metric: str) -> dict:
    return {
        "team": submission.team.name,
        "system_name": submission.system_name,
        "submission_id": submission.pk,
        "baseline": submission.is_baseline,
        "scored_at": submission.scored_at.isoformat() if submission.scored_at else None,
        "value": metric_value(scores, metric),
        "scores": scores,
    }


def board_order(row: dict) -> tuple:
    return (row["value"] is None, -(row["value"] or 0.0), row["submission_id"])


def ranked(rows: list[dict]) -> list[dict]:
    """Ranks 1.. over the teams' rows (already in board order); equal values share a rank.
    Organizers' baselines keep their place among them, unranked (``rank`` None): they are
    reference points (and GoToScorer pool members), not entrants."""
    previous, rank, position, result = object(), 0, 0, []
    for row in rows:
        if row.get("baseline"):
            result.append({**row, "rank": None})
            continue
        position += 1
        if row["value"] != previous:
            rank, previous = position, row["value"]
        result.append({**row, "rank": rank})
    return result


SMALL_POOL = 3  # below this many systems, GoToScorer's difficulty weights say little


def gotoscorer_pool(metric_names: list[str], size: int) -> dict | None:
    """What the board says about GoToScorer's pool of ``size`` systems (baselines
    included); None when the task does not score GoToScorer.

    A chunk's weight is 1 - n_i / N (Gotou et al., 2020): with N = 1 every chunk the lone
    system gets right weighs 0, so its F is 0 whatever it does; with N = 2 a weight is
    0, 0.5 or 1. The note says so until the pool has :data:`SMALL_POOL` systems."""
    if "gotoscorer" not in metric_names:
        return None
    if size >= SMALL_POOL:
        note = ""
    elif size <= 1:
        note = (
            f"GoToScorer's pool has N = {size} system: a chunk's weight is 1 - n/N, so every chunk it corrects "
            "weighs 0 "
            "and its GoToScorer scores are 0 whatever it does. The weights mean something from "
            f"N = {SMALL_POOL} systems on (organizers' baselines count)."
        )
    else:
        note = (
            f"GoToScorer's pool has N = {size} systems: each chunk's difficulty weight (1 - n/N) can only be "
            f"{', '.join(f'{1 - k / size:g}' for k in range(size + 1))}, so GoToScorer says little yet. The weights "
            f"mean something from N = {SMALL_POOL} systems on (organizers' baselines count)."
        )
    return {"size": size, "small": size < SMALL_POOL, "note": note}


class BoardBody(NamedTuple):
    """The API's body of one board as served: compact JSON, the same gzipped once for the
    clients that accept it (browsers do; a tenth of the bytes to write on every poll), and
    a weak ETag of the JSON, so a client holding this version gets a 304 without a body."""

    json: bytes
    gzip: bytes
    etag: str


def leaderboard_body(phase: Phase, metric: str, version: int) -> BoardBody:
    """``{"metric", "phase", "version", "rows"[, "human", "builtin", "gotoscorer_pool"]}``, built once
    per (phase, kind, version, metric).

    The body is the same for everyone allowed to see it (the rows are the pool, which has
    no per-viewer part); who may see it is asked of :mod:`leaderboard.access` on every
    request before this is called, so the cache never decides visibility. The pool's
    version is bumped by every change of what the body shows (a score landing, a pool
    join or leave, a phase edit, a team renamed), so a new version is a new key."""
    key = f"leaderboard:{phase.pk}:{phase.kind}:{version}:{metric}"
    cached = cache.get(key)
    if cached is not None:
        return BoardBody(*cached)
    rows = board_rows(phase.pk, metric)
    human = human_columns(phase)
    if human:  # published human evaluation campaigns: their column group
        rows = with_human_columns(rows, human)
    content = {"metric": metric, "phase": phase.kind, "version": version, "rows": rows}
    if human:
        content["human"] = [c["name"] for c in human]
        if builtin := builtin_cells(human):  # a rating campaign's rated ORIGINAL / REFERENCE, no board row
            content["builtin"] = builtin
    pool = gotoscorer_pool(phase.task.metric_names(), len(rows))
    if pool is not None:
        content["gotoscorer_pool"] = pool
    built = board_body(content)
    cache.set(key, tuple(built), timeout=3600)
    return built


def board_body(content: dict) -> BoardBody:
    """``content`` as the API sends it: compact JSON, gzipped, and its weak ETag."""
    body = json.dumps(content, separators=(",", ":")).encode()
    return BoardBody(
        body, gzip.compress(body, compresslevel=6, mtime=0), f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"'
    )
