"""A board's tie groups from kept sampled scores (leaderboard.insights.sampled reads them,
leaderboard.services.boards.sampled keeps them in the worker): each row's bootstrap half is
computed once and stored, so a later refresh, in any process, reads
~8 KB a row and no statistics, and gives the groups the statistics give."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leaderboard.insights import board as board_insights
from leaderboard.insights.board import compute_tie_groups, metric_statistics
from leaderboard.insights.ties import tie_groups
from leaderboard.models import SampledScores, Submission
from leaderboard.services.boards.sampled import keep_board_vectors
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db
PATH = "errant.cs.f"


def board(phase):
    return board_insights.board_rows_in_track(phase, board_rows(phase.pk, PATH), "")


def worker_refresh(phase, rows):
    """What the worker's tie refresh does: keep the missing vectors, then rank."""
    keep_board_vectors(phase, rows, PATH)
    return compute_tie_groups(phase, rows, PATH)


def statistics_read(queries) -> list[str]:
    return [q["sql"] for q in queries if '"statistics"' in q["sql"]]


def test_the_worker_that_scores_keeps_the_vector_so_no_refresh_reads_statistics(insight_task):
    """Made from the statistics in memory, bitwise the one a refresh would make from the stored ones."""
    phase = insight_task["phase"]
    rows = board(phase)
    scored = [r["submission_id"] for r in rows if r["value"] is not None]
    kept = {s.submission_id: bytes(s.values) for s in SampledScores.objects.filter(submission_id__in=scored, path=PATH)}
    assert set(kept) == set(scored)
    from_statistics = tie_groups(rows, metric_statistics(scored, "errant"), PATH, phase.scoring_options())
    with CaptureQueriesContext(connection) as refresh:
        assert compute_tie_groups(phase, rows, PATH) == from_statistics
    assert not statistics_read(refresh.captured_queries)
    SampledScores.objects.all().delete()
    worker_refresh(phase, rows)  # made again from the stored statistics
    assert {s.submission_id: bytes(s.values) for s in SampledScores.objects.filter(path=PATH)} == kept


def test_a_second_refresh_reads_no_statistics_and_gives_the_same_groups(insight_task):
    phase = insight_task["phase"]
    SampledScores.objects.all().delete()  # as before the worker kept them (or a board ranked by another path)
    rows = board(phase)
    scored = [r["submission_id"] for r in rows if r["value"] is not None]
    from_statistics = tie_groups(rows, metric_statistics(scored, "errant"), PATH, phase.scoring_options())
    with CaptureQueriesContext(connection) as first:
        assert worker_refresh(phase, rows) == from_statistics
    assert statistics_read(first.captured_queries)
    assert SampledScores.objects.filter(path=PATH).count() == len(scored)
    with CaptureQueriesContext(connection) as again:  # nothing in memory: all from the table
        assert compute_tie_groups(phase, rows, PATH) == from_statistics
    assert not statistics_read(again.captured_queries) and len(again.captured_queries) == 1


def test_a_rescore_samples_that_submission_again_and_drops_its_old_vector(insight_task):
    phase = insight_task["phase"]
    worker_refresh(phase, board(phase))
    rescored = next(r["submission_id"] for r in board(phase) if r["value"] is not None)
    before = SampledScores.objects.get(submission_id=rescored, path=PATH).key
    Submission.objects.filter(pk=rescored).update(scored_at=timezone.now())
    rows = board(phase)
    with CaptureQueriesContext(connection) as queries:
        worker_refresh(phase, rows)
    read = statistics_read(queries.captured_queries)
    assert len(read) == 1 and f"IN ({rescored})" in read[0]  # that submission's statistics only
    assert list(SampledScores.objects.filter(submission_id=rescored, path=PATH).values_list("key", flat=True)) != [
        before
    ]
    assert SampledScores.objects.filter(submission_id=rescored, path=PATH).count() == 1


def test_ranking_alone_keeps_nothing(insight_task):
    """The bootstrap reads the memo and computes what is missing, but a read writes nothing:
    keeping is the worker's step (keep_board_vectors)."""
    phase = insight_task["phase"]
    SampledScores.objects.all().delete()
    rows = board(phase)
    with CaptureQueriesContext(connection) as queries:
        compute_tie_groups(phase, rows, PATH)
    assert not [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert not SampledScores.objects.exists()


def test_the_worker_keeps_a_half_for_every_score_the_board_can_be_ranked_by(insight_task):
    """A refresh computes the groups of every "Rank by" score: the worker that scores keeps
    each one's half (bitwise the one a refresh would make), so no refresh parses statistics
    once a path for each new row."""
    import numpy as np

    from leaderboard.insights.paths import rank_by_choices
    from leaderboard.insights.sampled import computed
    from leaderboard.insights.ties import can_bootstrap
    from leaderboard.models import MetricResult
    from leaderboard.services.scoring_jobs.submission import board_vectors
    from scoring import metric_of
    from scoring.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED

    phase = insight_task["phase"]
    sid = next(r["submission_id"] for r in board(phase) if r["value"] is not None)
    statistics = dict(MetricResult.objects.filter(submission_id=sid).values_list("metric", "statistics"))
    made = board_vectors(phase, statistics)
    offered = [p for p, _ in rank_by_choices(phase.task, []) if can_bootstrap(p) and not metric_of(p).pooled]
    assert [path for path, _, _ in made] == offered and len(offered) >= 3
    for path, options, vector in made:
        again = computed({sid: ""}, path, options, DEFAULT_SAMPLES, DEFAULT_SEED)[sid]
        assert vector.observed == again.observed and np.array_equal(vector.values, again.values)
