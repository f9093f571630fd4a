"""The leaderboard page: every stored score to rank by, sort links, baselines, tracks, tie groups."""

import re

import pytest

from leaderboard.insights.board import metric_statistics, pool_counts
from leaderboard.insights.ties import tie_groups
from leaderboard.models import Submission
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db


def board(client, **params):
    response = client.get("/tasks/insight/", params)
    assert response.status_code == 200
    return response.content.decode()


def ranked_systems(html):
    body = html.split('id="leaderboard"')[1].split("</table>")[0]
    body = re.sub(r'<span class="word">([^<]*)</span>', r"\1", body)  # a hyphenated name's no-break span
    return re.findall(r"<td>[^<]*</td><td>([^<]+?)(?: <span|</td>)", body)


def test_board_lists_every_system_with_the_baseline_marked(insight_task, client):
    html = board(client)
    assert set(ranked_systems(html)) == {"T5", "BART", "GECToR-BERT", "INPUT"}
    assert re.search(r'<tr class="baseline"[^>]*>.*?INPUT <span class="muted">\(baseline\)', html, re.S)


def test_rank_by_lists_the_headline_scores_labelled(insight_task, client):
    html = board(client)
    menu = html.split('name="metric"')[1].split("</select>")[0]
    for path, name in (
        ("errant.cs.f", "ERRANT F"),
        ("gotoscorer.f", "GTS F"),
        ("cleme2.dependent.corpus.score", "CLEME2 dep"),
    ):
        assert f'value="{path}"' in menu and f">{name}</option>" in menu
    assert (
        "errant.ds.f" not in menu and ".tp" not in menu and "sim" not in menu
    )  # no raw paths, no counts, no similarity when off
    assert all(">" + p not in menu for p in ("errant.", "gotoscorer.", "cleme2."))  # labels, not paths
    asked = board(client, metric="errant.ds.f").split('name="metric"')[1].split("</select>")[0]
    assert 'value="errant.ds.f" selected' in asked  # a path asked for by URL stays shown


def test_column_headers_rank_by_that_column(insight_task, client):
    html = board(client)
    assert 'href="?phase=dev&amp;metric=gotoscorer.f&amp;track="' in html
    expected = [r["system_name"] for r in board_rows(insight_task["phase"].pk, "gotoscorer.f")]
    assert ranked_systems(board(client, metric="gotoscorer.f")) == expected


def test_tie_groups_say_test_samples_and_seed(insight_task, client):
    html = board(client, metric="errant.cs.f")
    assert 'id="ties-note"' in html and "paired bootstrap" in html
    assert "1000 samples, seed 12345" in html
    assert re.findall(r'data-group="(\d+)"', html)


def test_pool_metric_tie_groups_use_the_stored_pool_weights(insight_task, client):
    """GoToScorer resamples sentences with the phase's n_i and N (as stored in the
    database) fixed: the page's groups are those the library gives with that pool."""
    phase = insight_task["phase"]
    html = board(client, metric="gotoscorer.f")
    assert 'id="ties-note"' in html and "weights stay those of the whole pool" in html
    rows = board_rows(phase.pk, "gotoscorer.f")
    statistics = metric_statistics([r["submission_id"] for r in rows], "gotoscorer")
    pool = pool_counts(phase)
    assert pool.size == len(rows) and len(pool.n) == phase.gold_chunks.count()
    expected = tie_groups(rows, statistics, "gotoscorer.f", phase.task.scoring_options(), pool=pool)
    assert re.findall(r'data-group="(\d+)"', html) == [str(expected[r["submission_id"]]["group"]) for r in rows]


def test_no_tie_groups_for_a_count(insight_task, client):
    html = board(client, metric="gotoscorer.tp")
    assert (
        'id="ties-note"' not in html
        and "Significance groups are computed for rankings by a score that resamples" in html
        and "errant.cs.f" in html
    )


def test_track_filter_ranks_within_the_track(insight_task, client):
    task = insight_task["task"]
    task.tracks = ["restricted", "unrestricted"]
    task.save()
    subs = insight_task["submissions"]
    Submission.objects.filter(pk__in=[subs["T5"].pk, subs["BART"].pk]).update(track="restricted")
    Submission.objects.filter(pk=subs["GECToR-BERT"].pk).update(track="unrestricted")
    html = board(client, track="restricted")
    assert set(ranked_systems(html)) == {"T5", "BART", "INPUT"}
    assert re.search(r'<td class="num">1</td>.*?<td>T5', html, re.S)  # first within its track
    assert "<th>Track</th>" in board(client)


def test_the_teams_own_submissions_under_the_board_link_to_their_pages(insight_task, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="alice"))
    own = insight_task["submissions"]["T5"]
    table = board(client).split('id="own-submissions"')[1].split("</table>")[0]
    assert f'href="/tasks/insight/submissions/{own.pk}/"' in table and 'data-status="scored"' in table
    assert "BART" not in table  # bob's
