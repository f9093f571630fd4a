"""The meta-evaluation page: the table with intervals, the interval chart and the window plot, server-side."""

from __future__ import annotations

import re

import pytest

from leaderboard.campaigns.insights.meta_charts import interval_chart, window_chart, x_of
from leaderboard.campaigns.services.judgments import attach_judgments
from tests.support.meta_support_platform import insight_judgments

URL = "/tasks/insight/meta-evaluation/"


def test_interval_chart_places_dots_and_intervals_on_one_axis():
    system = {
        "errant.cs.f": {"TS": {"pearson": 0.5, "pearson_ci": [0.0, 1.0]}},
        "usim.f": {"TS": {"pearson": None}},
        "gotoscorer.f": {},
    }
    chart = interval_chart(system, "TS", "pearson")
    (row,) = chart["rows"]
    assert (row["x"], row["lo"], row["hi"]) == (x_of(0.5), x_of(0.0), x_of(1.0))
    assert x_of(-1.0) == chart["left"] and x_of(1.0) == chart["width"] - 20
    assert row["label"] == "ERRANT cs F"


def test_window_chart_draws_one_line_per_path():
    rows = [{"from": k, "to": k + 2, "pearson": v} for k, v in ((1, 1.0), (2, None), (3, -1.0))]
    chart = window_chart({"usim.f": {"TS": rows}}, "TS", "pearson")
    assert chart["size"] == 3 and [t["label"] for t in chart["xticks"]] == ["1-3", "2-4", "3-5"]
    assert (
        chart["lines"][0]["points"]
        == f"{chart['left']:.1f},{chart['top']:.1f} {chart['right']:.1f},{chart['bottom']:.1f}"
    )  # the window without a figure is skipped


@pytest.fixture
def judged(insight_task, db):
    attach_judgments(insight_task["phase"], insight_judgments(), ["TS_sent.txt", "judgments.xml"])
    return insight_task


def test_organizers_see_table_intervals_and_windows(judged, client):
    client.force_login(judged["organizer"])
    html = client.get(URL).content.decode()
    paths = re.findall(r'<tr data-path="([^"]+)"', html.split('id="meta-sentence"')[0])
    assert "errant.cs.f" in paths and "gotoscorer.f" in paths
    assert re.search(
        r'class="num ci" title="4 systems">-?[\d.]+ <span class="muted small">\[-?[\d.]+, -?[\d.]+\]', html
    )
    intervals = html.split('id="meta-intervals"')[1].split("</svg>")[0]
    assert intervals.count("<circle") == len(paths) and intervals.count('class="ci"') == len(paths)
    windows = html.split('id="meta-windows"')[1].split("</svg>")[0]
    assert windows.count("<polyline") == len(paths)
    assert 'id="meta-sentence"' in html and "samples:1000|seed:12345" in html
    assert not re.findall(r'src="(?!/static/)[^"]+"', html)  # drawn on the server; nothing from elsewhere


def test_choosing_set_scheme_and_correlation(judged, client):
    client.force_login(judged["organizer"])
    html = client.get(URL, {"set": "systems", "scheme": "EW_edit", "correlation": "spearman"}).content.decode()
    assert "over 3 systems: BART, GECToR-BERT, T5" in html and "Spearman with EW_edit" in html


@pytest.mark.django_db
def test_participants_and_unjudged_tasks(insight_task, client):
    from django.contrib.auth.models import User

    client.force_login(insight_task["organizer"])
    assert client.get(URL).status_code == 404
    client.force_login(User.objects.get(username="alice"))
    assert client.get(URL).status_code == 403
