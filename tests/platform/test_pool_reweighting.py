"""The GoToScorer pool: joins and leaves move n_i, N and every member's scores, which
always equal a from-scratch pool computation and a recount of n_i."""

import functools

import pytest
from django.db import connection

from leaderboard.models import GoldChunk, MetricResult, Pool, Submission, Team
from leaderboard.services.pool import membership as pool
from leaderboard.services.scoring_jobs.submission import _record, score_submission
from leaderboard.services.submissions.intake import accept_submission
from scoring import REGISTRY
from tests.support import needs
from tests.support.concurrency import at_once

from .conftest import make_user


def fresh_pool_scores(phase) -> dict[int, dict]:
    """What ``python -m scoring`` computes for the current members: the metric's own score_pool."""
    stats = dict(
        MetricResult.objects.filter(
            submission__phase=phase, submission__pool_membership__isnull=False, metric="gotoscorer"
        ).values_list("submission_id", "statistics")
    )
    return REGISTRY["gotoscorer"](phase.task.scoring_options()).score_pool(stats)


def stored_scores(phase) -> dict[int, dict]:
    return dict(
        MetricResult.objects.filter(
            submission__phase=phase, submission__pool_membership__isnull=False, metric="gotoscorer"
        ).values_list("submission_id", "scores")
    )


def submit(phase, user, text, system):
    submission = accept_submission(
        phase, user, system_name=system, filename=f"{system}.txt", content=text.encode(), queue=False
    )
    score_submission(submission.pk)
    return submission


def test_a_join_reweights_every_member(small_texts, phase):
    first = submit(phase, make_user("a"), small_texts["T5"], "T5")
    alone = stored_scores(phase)[first.pk]
    submit(phase, make_user("b"), small_texts["BART"], "BART")
    submit(phase, make_user("c"), small_texts["GECToR-BERT"], "GECToR-BERT")
    assert Pool.objects.get(phase=phase).size == 3
    assert stored_scores(phase)[first.pk] != alone
    assert stored_scores(phase) == fresh_pool_scores(phase)
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    assert GoldChunk.objects.filter(phase=phase).with_n().filter(n__gt=3).count() == 0


def test_a_teams_new_submission_replaces_its_old_one(small_texts, phase):
    alice = make_user("alice")
    old = submit(phase, alice, small_texts["T5"], "v1")
    submit(phase, make_user("bob"), small_texts["BART"], "BART")
    new = submit(phase, alice, small_texts["GECToR-BERT"], "v2")
    members = set(Submission.objects.filter(phase=phase, pool_membership__isnull=False).values_list("pk", flat=True))
    assert new.pk in members and old.pk not in members and len(members) == 2
    assert stored_scores(phase) == fresh_pool_scores(phase)
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)


def test_baselines_stay_in_the_pool(small_texts, phase):
    organizer = make_user("org")
    baseline = accept_submission(
        phase,
        organizer,
        system_name="INPUT",
        filename="i.txt",
        content=small_texts["source"].encode(),
        is_baseline=True,
        queue=False,
    )
    score_submission(baseline.pk)
    submit(phase, organizer, small_texts["T5"], "T5")
    assert Pool.objects.get(phase=phase).size == 2


def test_scoring_twice_changes_nothing(small_texts, phase):
    submission = submit(phase, make_user("a"), small_texts["T5"], "T5")
    submit(phase, make_user("b"), small_texts["BART"], "BART")
    before = (
        list(MetricResult.objects.order_by("pk").values()),
        pool.stored_counts(phase.pk),
        Pool.objects.get(phase=phase).size,
    )
    assert score_submission(submission.pk) == "scored"
    assert score_submission(submission.pk, force=True) == "scored"
    after = (
        list(MetricResult.objects.order_by("pk").values_list("submission_id", "metric", "statistics", "scores")),
        pool.stored_counts(phase.pk),
        Pool.objects.get(phase=phase).size,
    )
    assert [(r["submission_id"], r["metric"], r["statistics"], r["scores"]) for r in before[0]] == after[0]
    assert before[1:] == after[1:]


@needs.postgresql(connection.vendor)  # row locks
@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_lose_no_update(small_texts, small_task):
    """Six submissions finish at the same moment in six threads (six connections)."""
    phase = small_task.phases.get()
    metrics = [REGISTRY[name](small_task.scoring_options()) for name in small_task.metric_names()]
    import scoring
    from leaderboard.services.data.datasets import load_dataset

    dataset = load_dataset(phase.dataset_id)
    for metric in metrics:
        metric.prepare(dataset)
    statistics = {}
    for name in ("T5", "BART", "GECToR-BERT"):
        hypothesis = scoring.read_hypothesis(dataset, small_texts[name].encode(), name)
        statistics[name] = scoring.system_statistics(dataset, hypothesis, metrics)
    submissions = []
    for k in range(6):
        name = ("T5", "BART", "GECToR-BERT")[k % 3]
        team = Team.objects.create(name=f"team{k}")
        submissions.append(
            (
                Submission.objects.create(
                    phase=phase, team=team, system_name=name, filename="x", content=b"", size=0, status="running"
                ),
                name,
            )
        )

    def finish(submission, name):
        independent = [m for m in metrics if not m.pooled]
        scores = scoring.scores_from_statistics({"s": statistics[name]}, independent)["s"]
        _record(submission.pk, statistics[name], scores, "sig", False)

    results = at_once([functools.partial(finish, *item) for item in submissions])
    assert not [r for r in results if isinstance(r, Exception)]
    assert Pool.objects.get(phase=phase).size == 6
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    assert stored_scores(phase) == fresh_pool_scores(phase)


def test_a_worker_catches_up_on_what_others_changed(small_texts, phase):
    """The process's copy of the members follows the stored rows: a join it did not see
    is read, a member it holds that was never committed (a rolled-back join) is dropped,
    without a rebuild; a fresh process builds the copy from the packed bits at once."""
    from leaderboard.services.pool import store as pool_store

    alice = make_user("a")
    submit(phase, alice, small_texts["T5"], "T5")
    seen = submit(phase, make_user("b"), small_texts["BART"], "BART")
    cached = pool_store._outcomes[phase.pk]
    key = next(k for k in cached.members if k[1] == seen.pk)
    cached.remove(key)  # as if another worker had made that join
    ghost = (10**9, 10**9, "never committed")
    cached.add(ghost, cached.outcomes(cached.members[0]))
    submit(phase, make_user("c"), small_texts["GECToR-BERT"], "GECToR-BERT")
    assert pool_store._outcomes[phase.pk] is cached
    assert ghost not in cached and key in cached and cached.size == 3
    assert stored_scores(phase) == fresh_pool_scores(phase)
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    pool_store._outcomes.clear()  # a fresh worker
    submit(phase, alice, small_texts["BART"], "v2")  # alice's new submission replaces her old one
    assert pool_store._outcomes[phase.pk] is not cached and pool_store._outcomes[phase.pk].size == 3
    assert stored_scores(phase) == fresh_pool_scores(phase)
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)


def test_a_refreshed_member_moves_f_i_both_ways_in_one_update(small_texts, phase):
    """A rescore whose outcomes changed leaves and re-joins in one sync: f_i goes down on
    chunks it failed before and up on those it fails now, in one statement."""
    first = submit(phase, make_user("a"), small_texts["T5"], "T5")
    other = submit(phase, make_user("b"), small_texts["BART"], "BART")
    changed = MetricResult.objects.get(submission=other, metric="gotoscorer").statistics
    MetricResult.objects.filter(submission=first, metric="gotoscorer").update(statistics=changed)
    assert pool.sync_pool(phase.pk, refresh={first.pk})
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    assert stored_scores(phase) == fresh_pool_scores(phase)
    assert stored_scores(phase)[first.pk] == stored_scores(phase)[other.pk]
