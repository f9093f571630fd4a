"""Joins and leaves of a phase's GoToScorer pool, each in one transaction.

Who is in the pool is the phase's counting rule (:func:`wanted_members`: per team the
latest, the best or the chosen scored submission) plus every scored baseline;
``GEC_POOL=all`` puts every scored submission in. :func:`sync_pool` moves the stored pool
to that membership. The pool row is locked first (SELECT ... FOR UPDATE), so concurrent joins
run one after the other and no count is lost. Then, in the same transaction:

- f_i (members that failed chunk i, so n_i = N - f_i) moves by one on the chunks the
  joiner or leaver failed: a few thousand rows, not the tens of thousands it got right;
- N becomes the new size;
- every member's weighted scores are re-derived from a :class:`scoring.gotoscorer.Pool`
  this process keeps per phase, brought up to date first with the members that joined
  or left since it last looked (a set difference of member rows, which never change),
  so a join costs what changed, not a re-read of every member; and written back in one
  UPDATE ... FROM jsonb_each on PostgreSQL.
"""
from __future__ import annotations

import json

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Max

import scoring
from scoring.gotoscorer import Outcomes
from scoring.gotoscorer import Pool as MemberOutcomes
from scoring.metrics.gotoscorer import GoToScorer

from ..models import GoldChunk, MetricResult, Phase, Pool, PoolMember, Submission
from ..ranking import headline_metric
from . import gotoscorer

UPDATE_BATCH = 5000  # chunk positions per UPDATE (keeps SQLite under its parameter limit)
REBUILD_AFTER = 16  # more unseen members than this: rebuild the process's copy at once

_outcomes: dict[int, MemberOutcomes] = {}  # phase id -> members' outcomes, keyed (member pk, submission id, joined at)


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
        n_chunks = chunk_count(phase_id)
        members = member_outcomes(pool, n_chunks)
        for key in [key for key in members.members if key[0] in leaving]:
            _add_to_failures(phase_id, ~members.outcomes(key).correct, -1)
            members.remove(key)
        PoolMember.objects.filter(pk__in=leaving).delete()
        for submission_id in joining:
            _join(pool, submission_id, n_chunks, members)
        pool.size = len(wanted)
        pool.version += 1
        pool.save(update_fields=["size", "version"])
        _rescore_members(pool, n_chunks, members)
        _rescore_other_pooled_metrics(pool)
        return True


def member_outcomes(pool: Pool, n_chunks: int) -> MemberOutcomes:
    """The stored members' outcomes, as this process last saw them plus what changed.

    Member rows are written once and deleted on leaving, so comparing keys finds every
    change, including those of rolled-back transactions. Nothing in common (a phase id
    reused after a rollback on SQLite) means another pool: build it afresh."""
    members = _outcomes.get(pool.phase_id)
    stored = set(pool.members.values_list("pk", "submission_id", "joined_at"))
    known = set(members.members) if members is not None else set()
    unseen = stored - known
    if members is None or len(unseen) > REBUILD_AFTER or (known and not known & stored):
        gold = np.fromiter(GoldChunk.objects.filter(phase_id=pool.phase_id).order_by("position").values_list("modified", flat=True), dtype=bool, count=n_chunks)
        members = MemberOutcomes.of(gold, _read_outcomes(stored, n_chunks))
        _outcomes[pool.phase_id] = members
        return members
    for key in [key for key in members.members if key not in stored]:
        members.remove(key)
    for key, outcomes in _read_outcomes(unseen, n_chunks).items():
        members.add(key, outcomes)
    return members


def _read_outcomes(keys: set[tuple], n_chunks: int) -> dict[tuple, Outcomes]:
    rows = PoolMember.objects.filter(pk__in=[key[0] for key in keys]).values_list("pk", "submission_id", "joined_at", "modified", "correct")
    return {(pk, sid, joined): _outcomes_of(modified, correct, n_chunks) for pk, sid, joined, modified, correct in rows}


def chunk_count(phase_id: int) -> int:
    """The phase's number of gold chunks, from the (phase, position) index alone."""
    last = GoldChunk.objects.filter(phase_id=phase_id).aggregate(last=Max("position"))["last"]
    return 0 if last is None else last + 1


def _outcomes_of(modified: bytes, correct: bytes, n_chunks: int) -> Outcomes:
    if not n_chunks:  # GoToScorer is not scored in this task: the pool only counts N
        return Outcomes(np.zeros(0, dtype=bool), np.zeros(0, dtype=bool))
    return Outcomes(gotoscorer.unpack(modified, n_chunks), gotoscorer.unpack(correct, n_chunks))


def _join(pool: Pool, submission_id: int, n_chunks: int, members: MemberOutcomes) -> None:
    if not n_chunks:
        member = PoolMember.objects.create(pool=pool, submission_id=submission_id, modified=b"", correct=b"")
        members.add((member.pk, submission_id, member.joined_at), _outcomes_of(b"", b"", 0))
        return
    statistics = MetricResult.objects.values_list("statistics", flat=True).get(submission_id=submission_id, metric=gotoscorer.NAME)
    outcomes = gotoscorer.outcomes(statistics)
    if len(outcomes.correct) != n_chunks:
        raise ValueError(f"submission {submission_id} has outcomes for {len(outcomes.correct)} chunks, the phase has {n_chunks}")
    member = PoolMember.objects.create(pool=pool, submission_id=submission_id, modified=gotoscorer.pack(outcomes.modified), correct=gotoscorer.pack(outcomes.correct))
    _add_to_failures(pool.phase_id, ~np.asarray(outcomes.correct, dtype=bool), +1)
    members.add((member.pk, submission_id, member.joined_at), Outcomes(np.asarray(outcomes.modified, dtype=bool), np.asarray(outcomes.correct, dtype=bool)))


def _add_to_failures(phase_id: int, failed: np.ndarray, delta: int) -> None:
    """``UPDATE gold chunk SET failures = failures + delta`` on the chunks a member failed:
    one statement with an array on PostgreSQL, batches under SQLite's parameter limit."""
    positions = np.flatnonzero(failed).tolist()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {GoldChunk._meta.db_table} SET failures = failures + %s WHERE phase_id = %s AND position = ANY(%s::int[])",
                [delta, phase_id, "{" + ",".join(map(str, positions)) + "}"],  # one text literal: quicker to send than a list
            )
        return
    for i in range(0, len(positions), UPDATE_BATCH):
        batch = positions[i : i + UPDATE_BATCH]
        GoldChunk.objects.filter(phase_id=phase_id, position__in=batch).update(failures=F("failures") + delta)


def _rescore_members(pool: Pool, n_chunks: int, members: MemberOutcomes) -> None:
    """Every member's weighted scores from n_i and N as they now stand."""
    if not n_chunks:
        return
    task = pool.phase.task
    metric = GoToScorer(task.scoring_options())
    result_ids = dict(MetricResult.objects.filter(submission__pool_membership__pool=pool, metric=gotoscorer.NAME).values_list("submission_id", "pk"))
    scores = {result_ids[key[1]]: metric.member_result(members.sums(key), members.size, task.gts_ref) for key in members.members}
    write_scores(scores)


def write_scores(scores: dict[int, dict]) -> None:
    """Set ``MetricResult.scores`` by primary key: on PostgreSQL one UPDATE from one JSON
    object (one parameter, nothing escaped per row), Django's bulk_update elsewhere."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {MetricResult._meta.db_table} AS r SET scores = v.scores "
                "FROM jsonb_each(%s::jsonb) AS v(id, scores) WHERE r.id = v.id::bigint",
                [json.dumps({str(pk): s for pk, s in scores.items()})],
            )
        return
    results = [MetricResult(pk=pk, scores=s) for pk, s in scores.items()]
    MetricResult.objects.bulk_update(results, ["scores"], batch_size=500)


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
    n_chunks = chunk_count(phase_id)
    total = np.zeros(n_chunks, dtype=np.int64)
    for correct in PoolMember.objects.filter(pool__phase_id=phase_id).values_list("correct", flat=True):
        total += gotoscorer.unpack(correct, n_chunks)
    return dict(enumerate(total.tolist()))


def stored_counts(phase_id: int) -> dict[int, int]:
    """n_i as stored: N - f_i."""
    return dict(GoldChunk.objects.filter(phase_id=phase_id).with_n().values_list("position", "n"))


def touch(phase_id: int) -> None:
    """Tell live pages something changed (a status, a failure) without a pool change."""
    Pool.objects.filter(phase_id=phase_id).update(version=F("version") + 1)
