"""A lone submitter sees, on the board and in the API, why GoToScorer gives it 0: the pool has N = 1."""

import io

import pytest

from leaderboard.services.scoring_jobs.submission import score_submission

from .conftest import client_for, make_user


@pytest.mark.django_db
def test_board_and_api_show_the_note(small_task, small_texts, client):
    alice = make_user("alice")
    api = client_for(alice)
    response = api.post(
        "/api/tasks/small/submissions/",
        {"file": io.BytesIO(small_texts["T5"].encode()), "system_name": "t5"},
        format="multipart",
    )
    assert response.status_code == 201
    score_submission(response.json()["id"])
    body = api.get("/api/tasks/small/leaderboard/").json()
    assert body["gotoscorer_pool"]["size"] == 1 and "N = 1 system" in body["gotoscorer_pool"]["note"]
    assert 'id="pool-note"' in client.get("/tasks/small/").content.decode()
