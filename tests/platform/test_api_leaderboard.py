"""GET leaderboard, submission, difficulty, schema (docs/contracts.md section 3)."""

import datetime as dt

from django.utils import timezone

from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission

from .conftest import client_for, make_user


def scored_systems(phase, texts, names=("T5", "BART", "GECToR-BERT")):
    ids = {}
    for name in names:
        submission = accept_submission(
            phase,
            make_user(name.lower()),
            system_name=name,
            filename=f"{name}.txt",
            content=texts[name].encode(),
            queue=False,
        )
        score_submission(submission.pk)
        ids[name] = submission.pk
    return ids


def test_leaderboard_ranks_by_the_metric_asked(small_texts, phase, client):
    scored_systems(phase, small_texts)
    for metric in ("errant.cs.f", "gotoscorer.accuracy"):
        body = client.get(f"/api/tasks/small/leaderboard/?metric={metric}").json()
        assert body["metric"] == metric and len(body["rows"]) == 3
        head, *path = metric.split(".")
        values = []
        for row in body["rows"]:
            value = row["scores"][head]
            for key in path:
                value = value[key]
            values.append(value)
        assert values == sorted(values, reverse=True)
        assert [r["rank"] for r in body["rows"]][0] == 1
        assert {"rank", "team", "system_name", "submission_id", "scores"} <= set(body["rows"][0])


def test_hidden_phase_results_are_refused(small_texts, phase, client):
    phase.results_visibility = "organizers"
    phase.save()
    assert client.get("/api/tasks/small/leaderboard/").status_code in (401, 403)


def test_difficulty_is_for_organizers_until_the_phase_ends(small_texts, phase, client):
    scored_systems(phase, small_texts, names=("T5",))
    assert client.get("/api/tasks/small/difficulty/").status_code in (401, 403)
    organizer = make_user("org")
    phase.task.organizers.add(organizer)
    body = client_for(organizer).get("/api/tasks/small/difficulty/").json()
    assert body["pool_size"] == 1 and body["chunks"]
    assert all(c["weight"] == 1 - c["n"] for c in body["chunks"])
    phase.ends_at = timezone.now() - dt.timedelta(minutes=1)
    phase.save()
    assert client.get("/api/tasks/small/difficulty/?sentence=0").status_code == 200


def test_tasks_and_schema(small_task, client):
    tasks = client.get("/api/tasks/").json()
    assert tasks[0]["slug"] == "small" and tasks[0]["metrics"] == ["errant", "gotoscorer"]
    assert tasks[0]["phases"][0]["n_sentences"] == 20
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/tasks/{slug}/leaderboard/" in schema.content


def test_leaderboard_page_polls_for_changes(small_texts, phase, client):
    page = client.get("/tasks/small/")
    assert page.status_code == 200 and b"data-rows-url" in page.content
    version = page.context["version"]
    assert client.get(f"/tasks/small/rows/?since={version}").status_code == 204
    scored_systems(phase, small_texts, names=("T5",))
    rows = client.get(f"/tasks/small/rows/?since={version}")
    assert rows.status_code == 200 and b"T5" in rows.content
