"""A result's scores without their per-type tables are stored apart (migration 0026's
trigger), whichever path writes the scores, and a board reads them: the same figures as
dropping the tables from the whole document, without reading it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard.models import MetricResult
from leaderboard.standings import board_rows, summary
from tests.support import needs

pytestmark = pytest.mark.django_db
TABLES = {"per_type": {"1": {"R": {"tp": 1}}}, "per_type_detection": {"ds": {}}}


def stored(result) -> dict:
    return MetricResult.objects.values_list("scores_summary", flat=True).get(pk=result.pk)


@needs.postgresql(connection.vendor)  # the trigger is PostgreSQL's
def test_kept_on_insert_and_on_every_write_of_the_scores(insight_task):
    submission = insight_task["phase"].submissions.first()
    result = MetricResult.objects.create(
        submission=submission, metric="probe", statistics={}, scores={"f": 0.5, "cs": {"p": 1.0}, **TABLES}
    )
    assert stored(result) == {"f": 0.5, "cs": {"p": 1.0}}
    MetricResult.objects.filter(pk=result.pk).update(scores={"f": 0.25, **TABLES})
    assert stored(result) == {"f": 0.25}
    with connection.cursor() as cursor:  # as the pool writes its members' scores: one raw UPDATE
        sql = "UPDATE leaderboard_metricresult SET scores = %s::jsonb WHERE id = %s"
        cursor.execute(sql, ['{"f": 0.7}', result.pk])
    assert stored(result) == {"f": 0.7}


def test_a_board_shows_the_figures_of_the_whole_document_without_reading_it(insight_task):
    phase = insight_task["phase"]
    with CaptureQueriesContext(connection) as read:
        rows = board_rows(phase.pk, "errant.cs.f")
    expected = {}
    for sid, metric, scores in MetricResult.objects.filter(submission__phase=phase).values_list(
        "submission_id", "metric", "scores"
    ):
        expected.setdefault(sid, {})[metric] = summary(scores)
    assert {r["submission_id"]: r["scores"] for r in rows} == expected
    if connection.vendor == "postgresql":
        assert all(MetricResult.objects.filter(submission__phase=phase).values_list("scores_summary", flat=True))
        assert not [q for q in read.captured_queries if '"scores"' in q["sql"] and "scores_summary" not in q["sql"]]
