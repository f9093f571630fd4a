"""Joins and leaves of a phase's GoToScorer pool, each in one transaction.

Who is in the pool is the phase's counting rule (:func:`wanted_members`: per team the
latest, the best or the chosen scored submission) plus every scored baseline;
``GEC_POOL=all`` puts every scored submission in. :func:`sync_pool` moves the stored pool to that
membership: a leaver's correct chunks get ``n = n - 1``, a joiner's ``n = n + 1`` (SQL
updates, never read-modify-write in Python), N becomes the new size, and every member's
weighted scores are re-derived from the n_i read back inside the same transaction. The
pool row is locked first (SELECT ... FOR UPDATE), so concurrent joins run one after the
other and no count is lost.
"""
from __future__ import annotations

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import F, Max

import scoring

from ..models import GoldChunk, MetricResult, Phase, Pool, PoolMember, Submission
from ..ranking import headline_metric
from . import gotoscorer

UPDATE_BATCH = 5000  # chunk positions per UPDATE (keeps SQLite under its parameter limit)


def wanted_members(phase_id: int) -> set[int]:
    """The submissions that should be in the pool (and so on the board) now.

    Every scored baseline, and per team the one submission the phase's counting rule
    picks (``GEC_POOL=all``: every scored one). A withdrawn (hidden) submission never
    counts. This is the one place the rule is applied: board, pool, exports and the
    "counts" mark on a team's pages all follow the pool.
    """
    phase = Phase.objects.select_related("task").only("counting", "task__headline_metric", "task__metrics").get(pk=phase_id)
    scored = Submission.objects.filter(phase_id=phase_id, status=Submission.Status.SCORED, hidden=False)
    baselines = set(scored.filter(is_baseline=True).values_list("pk", flat=True))
    entries = scored.filter(is_baseline=False)
    if settings.GEC_POOL == "all":
        return baselines | set(entries.values_list("pk", flat=True))
    return baselines | set(counted_per_team(phase, entries).values())


def counted_per_team(phase: Phase, entries) -> dict[int, int]:
    """``{team id: submission id}`` under ``phase.counting`` among ``entries`` (scored,
    not withdrawn, not baselines). Best: the highest stored value at :func:`best_metric`
    (a submission without one ranks last; ties go to the latest). Chosen: the team's
    choice, else its latest."""
    latest = dict(entries.values("team_id").annotate(latest=Max("pk")).values_list("team_id", "latest"))
    if phase.counting == Phase.Counting.CHOSEN:
        return {**latest, **dict(entries.filter(chosen=True).values_list("team_id", "pk"))}
    if phase.counting == Phase.Counting.BEST:
        metric, *keys = best_metric(phase.task).split(".")
        values = MetricResult.objects.filter(submission__in=entries, metric=metric).values_list(
            "submission__team_id", "submission_id", "__".join(["scores", *keys]) if keys else "scores"
        )
        best: dict[int, tuple] = {}
        for team_id, submission_id, value in values:
            number = isinstance(value, int | float) and not isinstance(value, bool)
            key = (number, value if number else 0.0, submission_id)
            if team_id not in best or key > best[team_id]:
                best[team_id] = key
        return {**latest, **{team_id: key[2] for team_id, key in best.items()}}
    return latest


def best_metric(task) -> str:
    """The path "best" compares: the task's headline metric, unless that metric's scores
    depend on the pool (GoToScorer weighs by who else is in it, and a submission outside
    the pool has no current score); then the ranking path of the first metric that does not."""
    path = headline_metric(task)
    independent = [name for name in task.metric_names() if not scoring.REGISTRY[name].pooled]
    if path.split(".")[0] in independent:
        return path
    return scoring.default_path(independent) or path


def sync_pool(phase_id: int, *, refresh: set[int] = frozenset()) -> bool:
    """Bring the pool to :func:`wanted_members`; ``refresh`` re-joins members whose
    outcomes changed (a rescore). Returns whether anything changed. Call inside or
    outside a transaction; it opens its own (savepoint) either way."""
    with transaction.atomic():
        pool = Pool.objects.select_for_update().get(phase_id=phase_id)
        wanted = wanted_members(phase_id)
        current = dict(pool.members.values_list("submission_id", "pk"))
        leaving = [pk for sid, pk in current.items() if sid not in wanted or sid in refresh]
        joining = sorted(sid for sid in wanted if sid not in current or sid in refresh)
        if not leaving and not joining:
            return False
        chunks = GoldChunk.objects.filter(phase_id=phase_id)
        n_chunks = chunks.count()
        for member in PoolMember.objects.filter(pk__in=leaving):
            _add_to_counts(phase_id, gotoscorer.unpack(member.correct, n_chunks), -1)
        PoolMember.objects.filter(pk__in=leaving).delete()
        for submission_id in joining:
            _join(pool, submission_id, n_chunks)
        pool.size = len(wanted)
        pool.version += 1
        pool.save(update_fields=["size", "version"])
        _rescore_members(pool, n_chunks)
        _rescore_other_pooled_metrics(pool)
        return True


def _join(pool: Pool, submission_id: int, n_chunks: int) -> None:
    if not n_chunks:  # GoToScorer is not scored in this task: the pool only counts N
        PoolMember.objects.create(pool=pool, submission_id=submission_id, modified=b"", correct=b"")
        return
    statistics = MetricResult.objects.values_list("statistics", flat=True).get(submission_id=submission_id, metric=gotoscorer.NAME)
    member = gotoscorer.outcomes(statistics)
    if len(member.correct) != n_chunks:
        raise ValueError(f"submission {submission_id} has outcomes for {len(member.correct)} chunks, the phase has {n_chunks}")
    PoolMember.objects.create(pool=pool, submission_id=submission_id, modified=gotoscorer.pack(member.modified), correct=gotoscorer.pack(member.correct))
    _add_to_counts(pool.phase_id, member.correct, +1)


def _add_to_counts(phase_id: int, correct: np.ndarray, delta: int) -> None:
    """``UPDATE gold chunk SET n = n + delta`` on the chunks a member got right."""
    positions = np.flatnonzero(correct).tolist()
    for i in range(0, len(positions), UPDATE_BATCH):
        batch = positions[i : i + UPDATE_BATCH]
        GoldChunk.objects.filter(phase_id=phase_id, position__in=batch).update(n=F("n") + delta)


def _rescore_members(pool: Pool, n_chunks: int) -> None:
    """Every member's weighted scores from n_i and N as they now stand (read back here)."""
    if not n_chunks:
        return
    task = pool.phase.task
    rows = list(GoldChunk.objects.filter(phase_id=pool.phase_id).order_by("position").values_list("n", "modified"))
    n = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n_chunks)
    gold_modified = np.fromiter((r[1] for r in rows), dtype=bool, count=n_chunks)
    options = task.scoring_options()
    results = {r.submission_id: r for r in MetricResult.objects.filter(submission__pool_membership__pool=pool, metric=gotoscorer.NAME).defer("statistics")}
    for submission_id, modified, correct in pool.members.values_list("submission_id", "modified", "correct"):
        member = gotoscorer.Outcomes(gotoscorer.unpack(modified, n_chunks), gotoscorer.unpack(correct, n_chunks))
        results[submission_id].scores = gotoscorer.member_scores(gold_modified, member, n, pool.size, options, task.gts_ref)
    MetricResult.objects.bulk_update(results.values(), ["scores"], batch_size=500)


def _rescore_other_pooled_metrics(pool: Pool) -> None:
    """Pool metrics other than GoToScorer: the library's ``score_pool`` on stored statistics."""
    from .scoring import prepared_metrics

    task = pool.phase.task
    for metric in prepared_metrics(task, pool.phase.dataset_id):
        if not metric.pooled or metric.name == gotoscorer.NAME:
            continue
        results = {r.submission_id: r for r in MetricResult.objects.filter(submission__pool_membership__pool=pool, metric=metric.name)}
        scores = metric.score_pool({sid: r.statistics for sid, r in results.items()})
        for sid, result in results.items():
            result.scores = scores[sid]
        MetricResult.objects.bulk_update(results.values(), ["scores"], batch_size=500)


def recount(phase_id: int) -> dict[int, int]:
    """n_i from scratch over the current members: what the stored counts must equal."""
    n_chunks = GoldChunk.objects.filter(phase_id=phase_id).count()
    total = np.zeros(n_chunks, dtype=np.int64)
    for correct in PoolMember.objects.filter(pool__phase_id=phase_id).values_list("correct", flat=True):
        total += gotoscorer.unpack(correct, n_chunks)
    return dict(enumerate(total.tolist()))


def stored_counts(phase_id: int) -> dict[int, int]:
    return dict(GoldChunk.objects.filter(phase_id=phase_id).values_list("position", "n"))


def touch(phase_id: int) -> None:
    """Tell live pages something changed (a status, a failure) without a pool change."""
    Pool.objects.filter(phase_id=phase_id).update(version=F("version") + 1)
