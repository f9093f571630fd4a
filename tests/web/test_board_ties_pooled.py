"""A GoToScorer board's tie groups from the pool's packed bits, every member sampled in one
product (leaderboard.insights.pooled_samples): the same groups, p-values and deltas as
resampling each row from its statistics with the stored n_i and N (the former path),
without reading any statistics; a row outside the pool is still resampled from them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard.insights import board as board_insights
from leaderboard.insights.board import compute_tie_groups, metric_statistics, pool_counts
from leaderboard.insights.ties import tie_groups
from leaderboard.models import PoolMember
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db


def former_groups(phase, rows, path):
    statistics = metric_statistics([r["submission_id"] for r in rows if r["value"] is not None], "gotoscorer")
    return tie_groups(rows, statistics, path, phase.scoring_options(), pool=pool_counts(phase))


@pytest.mark.parametrize("path", ["gotoscorer.f", "gotoscorer.accuracy", "gotoscorer.unweighted.f"])
def test_the_same_groups_as_resampling_each_row_from_its_statistics(insight_task, path):
    phase = insight_task["phase"]
    rows = board_insights.board_rows_in_track(phase, board_rows(phase.pk, path), "")
    expected = former_groups(phase, rows, path)
    assert expected
    with CaptureQueriesContext(connection) as refresh:
        assert compute_tie_groups(phase, rows, path) == expected
    assert not [q for q in refresh.captured_queries if '"statistics"' in q["sql"]]


def test_a_row_outside_the_pool_is_resampled_from_its_statistics(insight_task):
    phase = insight_task["phase"]
    rows = board_insights.board_rows_in_track(phase, board_rows(phase.pk, "gotoscorer.f"), "")
    expected = former_groups(phase, rows, "gotoscorer.f")
    PoolMember.objects.filter(submission_id=rows[1]["submission_id"]).delete()
    assert compute_tie_groups(phase, rows, "gotoscorer.f") == expected
