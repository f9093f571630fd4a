"""A task's API entry says which score paths ``?metric=`` takes, with labels and whether
higher is better (read from the metric registry), and what the board ranks by."""

import scoring


def test_task_lists_its_score_paths_with_labels_and_directions(small_task, client):
    task = client.get("/api/tasks/small/").json()
    paths = {p["path"]: p for p in task["score_paths"]}
    assert set(paths) == set(scoring.valid_paths(["errant", "gotoscorer"]))
    assert paths["errant.cs.f"]["higher_is_better"] and paths["errant.cs.f"]["headline"]
    assert paths["errant.cs.f"]["label"] == scoring.describe("errant.cs.f").label
    assert task["ranked_by"] in paths


def test_an_unknown_metric_is_a_400_listing_the_valid_paths(small_task, client):
    response = client.get("/api/tasks/small/leaderboard/?metric=bogus")
    assert response.status_code == 400
    assert "errant.cs.f" in response.content.decode()
