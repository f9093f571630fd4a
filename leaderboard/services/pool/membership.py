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
  or left since it last looked (a set difference of member keys, :mod:`.pool_store`),
  so a join costs what changed, not a re-read of every member; computed for all members
  at once on arrays and written back in one UPDATE ... FROM jsonb_each on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Set

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import Max

import scoring
from scoring.metrics.gotoscorer import GoToScorer

from ...board_version import board_changed
from ...models import GoldChunk, MetricResult, Phase, Pool, PoolMember, Submission
from ...standings import entry_outputs, entry_snapshots, headline_metric
from ..boards.ties import board_rows_changed
from ..data.metrics import prepared_metrics
from . import gotoscorer, store


def wanted_members(phase_id: int, *, phase: Phase | None = None) -> set[int]:
    """The submissions that should be in the pool (and so on the board) now.

    Every scored baseline, and per team the one submission the phase's counting rule
    picks (``GEC_POOL=all``: every scored one). A withdrawn (hidden) submission never
    counts. A corpus of a phase of several corpora: per counted entry (each team's, each
    baseline upload's: :func:`counted_entries`) its output in that corpus. This is the
    one place the rule is applied: board, pool, exports and the "counts" mark on a
    team's pages all follow the pool. ``phase``: the phase with its task, when the
    caller has it already.
    """
    if phase is None:
        phase = (
            Phase.every.select_related("task")
            .only("counting", "parent_id", "dataset_id", "task__headline_metric", "task__metrics")
            .get(pk=phase_id)
        )
    scored = Submission.objects.filter(phase_id=phase_id, status=Submission.Status.SCORED, hidden=False)
    if phase.parent_id is not None:  # a corpus: each counted entry's output in it
        if settings.GEC_POOL == "all":
            return set(
                scored.filter(parent__status=Submission.Status.SCORED, parent__hidden=False).values_list(
                    "pk", flat=True
                )
            )
        return {entry[phase_id] for entry in counted_entries(phase.parent_id) if phase_id in entry}
    if settings.GEC_POOL == "all":
        return set(scored.values_list("pk", flat=True))
    baselines = set(scored.filter(is_baseline=True).values_list("pk", flat=True))
    return baselines | set(counted_per_team(phase, scored.filter(is_baseline=False)).values())


def counted_per_team(phase: Phase, entries) -> dict[int, int]:
    """``{team id: submission id}`` under ``phase.counting`` among ``entries`` (scored,
    not withdrawn, not baselines). Best: the highest stored value at :func:`best_metric`
    (a submission without one ranks last; ties go to the latest). Chosen: the team's
    choice, else its latest."""
    latest = dict(entries.values("team_id").annotate(latest=Max("pk")).values_list("team_id", "latest"))
    if phase.counting == Phase.Counting.CHOSEN:
        return {**latest, **dict(entries.filter(chosen=True).values_list("team_id", "pk"))}
    if phase.counting == Phase.Counting.BEST:
        best: dict[int, tuple] = {}
        for (team_id, submission_id), value in best_values(phase, entries).items():
            number = value is not None
            key = (number, value if number else 0.0, submission_id)
            if team_id not in best or key > best[team_id]:
                best[team_id] = key
        return {**latest, **{team_id: key[2] for team_id, key in best.items()}}
    return latest


def best_values(phase: Phase, entries) -> dict[tuple[int, int], float | None]:
    """``{(team id, submission id): value}`` at :func:`best_metric` of each of ``entries``
    that has a stored result; None where it is not a number."""
    metric, *keys = best_metric(phase.task).split(".")
    rows = MetricResult.objects.filter(submission__in=entries, metric=metric).values_list(
        "submission__team_id", "submission", "__".join(["scores", *keys]) if keys else "scores"
    )
    return {(team_id, submission_id): value if is_number(value) else None for team_id, submission_id, value in rows}


def corpus_members(phase_id: int, corpora: list[int]) -> dict[int, set[int]]:
    """``{corpus phase id: its pool's members}`` of a phase of several corpora, as
    :func:`wanted_members` gives them one corpus at a time."""
    if settings.GEC_POOL == "all":
        return {corpus: wanted_members(corpus) for corpus in corpora}
    members: dict[int, set[int]] = {corpus: set() for corpus in corpora}
    for entry in counted_entries(phase_id):
        for corpus, output in entry.items():
            members[corpus].add(output)
    return members


def counted_entries(phase_id: int) -> list[dict[int, int]]:
    """A phase of several corpora: the entries on its board, each ``{corpus phase id:
    output id}``. Every baseline upload's outputs; per team, the entry
    (:func:`leaderboard.standings.entry_snapshots`: per corpus its latest output so far) as
    it stood after the upload the phase's rule picks: the latest, the chosen one (else
    the latest), or the one whose entry has the best macro average at
    :func:`best_metric` (an entry missing a corpus has none and is never the best)."""
    phase = Phase.objects.select_related("task").get(pk=phase_id)
    outputs = entry_outputs(phase_id)
    snapshots = entry_snapshots(outputs)
    teams: dict[int, list[int]] = {}
    baselines: set[int] = set()
    for output in outputs:
        if output.baseline:
            baselines.add(output.upload_id)
        else:
            teams.setdefault(output.team_id, []).append(output.upload_id)
    counted = {team_id: max(uploads) for team_id, uploads in teams.items()}  # latest
    if phase.counting == Phase.Counting.CHOSEN:
        chosen = Submission.objects.filter(pk__in=list(snapshots), chosen=True).values_list("team_id", "pk")
        counted.update({team_id: pk for team_id, pk in chosen if team_id in counted})
    elif phase.counting == Phase.Counting.BEST:
        values = entry_values(phase, outputs, snapshots)
        for team_id, uploads in teams.items():
            counted[team_id] = max(
                set(uploads), key=lambda upload: (values[upload] is not None, values[upload] or 0.0, upload)
            )
    return [snapshots[upload] for upload in [*baselines, *counted.values()]]


def entry_values(phase: Phase, outputs: list, snapshots: dict[int, dict[int, int]]) -> dict[int, float | None]:
    """``{upload id: macro average at best_metric of its entry}``; None when the entry
    misses a corpus or a value is not a number."""
    metric, *keys = best_metric(phase.task).split(".")
    values = dict(
        MetricResult.objects.filter(submission__in=[o.output_id for o in outputs], metric=metric).values_list(
            "submission_id", "__".join(["scores", *keys]) if keys else "scores"
        )
    )
    n_corpora = len(phase.corpora())
    result = {}
    for upload, entry in snapshots.items():
        found = [values.get(output) for output in entry.values()]
        complete = len(found) == n_corpora and all(is_number(v) for v in found)
        result[upload] = sum(v for v in found if v is not None) / n_corpora if complete else None
    return result


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def best_metric(task) -> str:
    """The path "best" compares: the task's headline metric, unless that metric's scores
    depend on the pool (GoToScorer weighs by who else is in it, and a submission outside
    the pool has no current score); then the ranking path of the first metric that does not."""
    path = headline_metric(task)
    independent = [name for name in task.metric_names() if not scoring.REGISTRY[name].pooled]
    if path.split(".")[0] in independent:
        return path
    return scoring.default_path(independent) or path


def sync_pool(phase_id: int, *, refresh: Set[int] = frozenset(), wanted: set[int] | None = None) -> bool:
    """Bring the pool to :func:`wanted_members`; ``refresh`` re-joins members whose
    outcomes changed (a rescore). Returns whether anything changed. Call inside or
    outside a transaction; it opens its own (savepoint) either way. A phase of several
    corpora has a pool per corpus: their rows are locked together (in one order, so
    concurrent syncs queue), the entries computed once (:func:`counted_entries`), then
    each pool is brought up to date (``wanted``: its members, so computed)."""
    corpora = list(Phase.every.filter(parent_id=phase_id).order_by("pk").values_list("pk", flat=True))
    if corpora:
        with transaction.atomic():
            list(
                Pool.objects.select_for_update()
                .filter(phase_id__in=corpora)
                .order_by("phase_id")
                .values_list("pk", flat=True)
            )
            by_corpus = corpus_members(phase_id, corpora)
            changed = any([sync_pool(corpus, refresh=refresh, wanted=by_corpus[corpus]) for corpus in corpora])
            if changed:  # once, when every corpus's pool and scores are new
                board_rows_changed(phase_id)
            return changed
    by_the_phase = wanted is not None  # one corpus of a phase's sync (above)
    with transaction.atomic():
        pool = Pool.objects.select_for_update(of=("self",)).select_related("phase__task").get(phase_id=phase_id)
        phase = pool.phase  # read with the lock, which holds the pool row alone
        if wanted is None:
            wanted = wanted_members(phase_id, phase=phase)
        stored = store.member_keys(pool)
        current = {sid: pk for pk, sid, _ in stored}
        leaving = {pk for sid, pk in current.items() if sid not in wanted or sid in refresh}
        joining = sorted(sid for sid in wanted if sid not in current or sid in refresh)
        if not leaving and not joining:
            return False
        n_chunks = chunk_count(phase_id)
        members = store.member_outcomes(pool, n_chunks, stored)
        failures = np.zeros(n_chunks, dtype=np.int64)  # how each f_i moves
        for key in [key for key in members.members if key[0] in leaving]:
            failures -= ~members.outcomes(key).correct
            members.remove(key)
        PoolMember.objects.filter(pk__in=leaving).delete()
        for key, outcomes in store.add_members(pool, joining, n_chunks):
            failures += ~outcomes.correct
            members.add(key, outcomes)
        store.add_to_failures(phase_id, failures)
        pool.size = len(wanted)
        pool.save(update_fields=["size"])
        board_changed(phase_id)
        _rescore_members(phase.task, n_chunks, members)
        _rescore_other_pooled_metrics(pool, phase)
        if not by_the_phase:  # else the phase's sync asks once, when every corpus is done
            board_rows_changed(phase.parent_id or phase_id)  # after the rescores: of the new scores
        return True


def chunk_count(phase_id: int) -> int:
    """The phase's number of gold chunks, from the (phase, position) index alone."""
    last = GoldChunk.objects.filter(phase_id=phase_id).aggregate(last=Max("position"))["last"]
    return 0 if last is None else last + 1


def _rescore_members(task, n_chunks: int, members) -> None:
    """Every member's weighted scores from n_i and N as they now stand, computed for all
    members at once and written as one JSON text (``GoToScorer.results_json``) in one
    statement."""
    if not n_chunks:
        return
    names, counts, n_sums = members.sums_table()
    payload = GoToScorer(task.scoring_options()).results_json(
        [key[1] for key in names], counts, n_sums, members.size, task.gts_ref
    )
    store.write_scores(gotoscorer.NAME, payload)


def _rescore_other_pooled_metrics(pool: Pool, phase: Phase) -> None:
    """Pool metrics other than GoToScorer: the library's ``score_pool`` on stored statistics.
    Without one, the task's metrics are not even built (in a fresh worker that would
    prepare GoToScorer's gold chunks for nothing)."""
    task = phase.task
    others = [name for name in task.metric_names() if name != gotoscorer.NAME]
    if all(name in scoring.REGISTRY and not scoring.REGISTRY[name].pooled for name in others):
        return
    for metric in prepared_metrics(phase):
        if not metric.pooled or metric.name == gotoscorer.NAME:
            continue
        results = {
            r.submission_id: r
            for r in MetricResult.objects.filter(submission__pool_membership__pool=pool, metric=metric.name)
        }
        scores = metric.score_pool({sid: r.statistics for sid, r in results.items()})
        for sid, result in results.items():
            result.scores = scores[sid]
        MetricResult.objects.bulk_update(results.values(), ["scores"], batch_size=500)


def counts_from_members(phase_id: int) -> dict[int, int]:
    """n_i from scratch over the current members: what the stored counts must equal."""
    n_chunks = chunk_count(phase_id)
    total = np.zeros(n_chunks, dtype=np.int64)
    for correct in PoolMember.objects.filter(pool__phase_id=phase_id).values_list("correct", flat=True):
        total += gotoscorer.unpack(bytes(correct), n_chunks)
    return dict(enumerate(total.tolist()))


def stored_counts(phase_id: int) -> dict[int, int]:
    """n_i as stored: N - f_i."""
    return dict(GoldChunk.objects.filter(phase_id=phase_id).with_n().values_list("position", "n"))
