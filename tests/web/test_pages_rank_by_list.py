"""One labelled "Rank by" list of headline scores: on a new task too (no raw paths, no
counts), with similarity-weighted CLEME2.0 only when the task scores it."""

import pytest

from leaderboard.insights.paths import rank_by_choices
from leaderboard.models import SharedTask

pytestmark = pytest.mark.django_db


def test_a_new_task_lists_labelled_headline_scores_without_sim():
    task = SharedTask(slug="new", metrics=["errant", "cleme2", "gotoscorer"])
    choices = rank_by_choices(task, [])
    assert ("errant.cs.f", "ERRANT F") in choices and ("gotoscorer.f", "GTS F") in choices
    assert not [path for path, _ in choices if path.startswith("cleme2.sim.")]
    assert all("tp" not in path.split(".") for path, _ in choices) and len(choices) < 12


def test_similarity_when_the_task_scores_it():
    task = SharedTask(slug="sim", metrics=["cleme2"], sim=True)
    assert ("cleme2.sim.dependent.corpus.score", "CLEME2 sim") in rank_by_choices(task, [])


def test_the_board_page_uses_it(insight_task, client):
    menu = client.get("/tasks/insight/").content.decode().split('name="metric"')[1].split("</select>")[0]
    assert menu.count("<option") == len(
        rank_by_choices(insight_task["task"], [])
    )  # every headline score has a row here
