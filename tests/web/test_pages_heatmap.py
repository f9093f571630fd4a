"""The difficulty heat map: colours by GoToScorer weight, hardest first, type filter, live fragment."""

import re

import numpy as np
import pytest

from leaderboard.board_version import board_changed
from leaderboard.insights.heatmap import colour, sentence_rows


def test_colour_goes_from_pale_to_deep_red():
    assert colour(0.0) == "background:hsl(0,85%,95%);color:#222"
    assert colour(1.0) == "background:hsl(0,85%,35%);color:#fff"
    assert colour(None) == "background:#eee"


def test_sentences_are_sorted_hardest_first_and_unmodified_text_stays_plain():
    sources = [["a", "b", "c"], ["d", "e"]]
    #         sentence, start, end, correction, type, modified, n
    chunks = [
        (0, 0, 1, "a", "", False, 0),
        (0, 1, 2, "B", "R:ORTH", True, 1),
        (0, 2, 3, "c", "", False, 0),
        (1, 0, 0, "x", "M:DET", True, 0),
        (1, 0, 1, "d", "", False, 0),
        (1, 1, 2, "e", "", False, 0),
    ]
    rows = sentence_rows(sources, chunks, np.array([0.0, 0.5, 0.0, 1.0, 0.0, 0.0]), 2)
    assert [r["line"] for r in rows] == [2, 1]
    insertion = rows[0]["segments"][0]
    assert (
        insertion["edit"]
        and insertion["text"] == "\u2038"
        and insertion["correction"] == "x"
        and insertion["weight"] == 1.0
    )
    assert [s["text"] for s in rows[1]["segments"]] == ["a", "b", "c"] and rows[1]["segments"][1]["edit"]


@pytest.mark.django_db
def test_organizer_sees_weighted_chunks_hardest_first(insight_task, client):
    client.force_login(insight_task["organizer"])
    html = client.get("/tasks/insight/difficulty/").content.decode()
    difficulties = [float(d) for d in re.findall(r'data-sentence="\d+"><span class="muted small">\d+ · ([\d.]+)', html)]
    assert difficulties and difficulties == sorted(difficulties, reverse=True)
    assert re.search(r'class="edit" style="background:hsl\(0,85%,\d+%\)', html)
    assert re.search(r'title="[^"]*→[^"]*· [A-Z]+:[A-Z:]+ · weight [\d.]+ · \d of 4 systems right"', html)
    assert 'id="difficulty-table"' in html and "Mean w" in html


@pytest.mark.django_db
def test_type_filter_keeps_sentences_with_that_type(insight_task, client):
    client.force_login(insight_task["organizer"])
    html = client.get("/tasks/insight/difficulty/", {"type": "R:SPELL"}).content.decode()
    blocks = html.split('class="sentence"')[1:]
    assert blocks and all('data-type="R:SPELL"' in b for b in blocks)


@pytest.mark.django_db
def test_fragment_answers_204_until_the_pool_changes(insight_task, client):
    client.force_login(insight_task["organizer"])
    version = re.search(r'data-version="(\d+)"', client.get("/tasks/insight/difficulty/map/").content.decode()).group(1)
    assert client.get("/tasks/insight/difficulty/map/", {"since": version}).status_code == 204
    board_changed(insight_task["phase"].pk)
    assert client.get("/tasks/insight/difficulty/map/", {"since": version}).status_code == 200


@pytest.mark.django_db
def test_participants_do_not_see_it_while_the_phase_runs(insight_task, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="alice"))
    assert client.get("/tasks/insight/difficulty/").status_code == 403
    assert client.get("/tasks/insight/difficulty/map/").status_code == 403
