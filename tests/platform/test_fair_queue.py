"""The fair queue: a team has one job per queue in the broker at a time,
the next sent when it ends; a team may keep GEC_MAX_QUEUED_UPLOADS uploads of a phase
waiting (then 429, naming the setting). The broker's sends are captured here; a real
worker runs them in test_integration_fair_queue.py."""

import pytest

from leaderboard import queue as jobs
from leaderboard.models import Submission
from leaderboard.services.jobs.sweeper import sweep_stuck_submissions
from leaderboard.services.scoring_jobs import dispatch
from leaderboard.services.scoring_jobs.queued import scoring_ended
from leaderboard.services.submissions.intake import accept_submission

from .conftest import make_user
from .test_api_limits import upload


@pytest.fixture
def sent(monkeypatch, settings):
    """The scoring jobs sent to the broker, in order: (submission id, queue)."""
    messages = []
    monkeypatch.setattr(
        jobs.celery_app,
        "send_task",
        lambda name, args, **options: messages.append((args[0], options.get("queue", "celery"))),
    )
    settings.GEC_TASK_MODE = "celery"
    return messages


def submit(phase, user, text, on_commit, name="s"):
    with on_commit():
        return accept_submission(phase, user, system_name=name, filename="o.txt", content=text.encode()).pk


def end(submission_id, status="scored"):
    Submission.objects.filter(pk=submission_id).update(status=status)
    scoring_ended(submission_id)


def test_a_team_has_one_job_in_the_broker_and_the_next_follows_when_it_ends(phase, small_texts, sent, on_commit):
    alice, bob = make_user("alice"), make_user("bob")
    a = [submit(phase, alice, small_texts[n], on_commit, n) for n in ("T5", "BART", "GECToR-BERT")]
    b = submit(phase, bob, small_texts["T5"], on_commit)
    assert sent == [(a[0], "celery"), (b, "celery")]  # bob's one comes right after alice's first
    end(a[0])
    assert sent[-1] == (a[1], "celery")
    end(a[1], "failed")  # a failure frees the place too
    assert sent[-1] == (a[2], "celery")
    end(a[2])
    end(b)
    assert len(sent) == 4
    assert set(Submission.objects.values_list("lane", flat=True)) == {"celery"}


def test_queues_are_separate_lanes(phase, small_texts, sent, on_commit, settings):
    """A team's costly job in the large queue does not hold its light one."""
    alice = make_user("alice")
    wide = "".join(" ".join(["word"] * 1000) + "\n" for _ in small_texts["source"].splitlines())
    heavy = submit(phase, alice, wide, on_commit)
    light = submit(phase, alice, small_texts["T5"], on_commit)
    assert sent == [(heavy, "scoring-large"), (light, "celery")]


def test_several_at_once_when_the_setting_allows(phase, small_texts, sent, on_commit, settings):
    settings.GEC_TEAM_JOBS_AT_ONCE = 2
    alice = make_user("alice")
    ids = [submit(phase, alice, small_texts[n], on_commit, n) for n in ("T5", "BART", "GECToR-BERT")]
    assert [pk for pk, _ in sent] == ids[:2]


def test_the_sweeper_resends_a_lost_message_and_never_a_second_job(phase, small_texts, sent, on_commit):
    alice = make_user("alice")
    first = submit(phase, alice, small_texts["T5"], on_commit)
    second = submit(phase, alice, small_texts["BART"], on_commit)
    with on_commit():
        assert set(sweep_stuck_submissions(older_than=-1)) == {first, second}
    # the first again (its message may be lost); the second still waits behind it
    assert [pk for pk, _ in sent] == [first, first]


def test_a_job_the_sweeper_fails_lets_the_next_one_go(phase, small_texts, sent, on_commit, settings):
    alice = make_user("alice")
    first = submit(phase, alice, small_texts["T5"], on_commit)
    second = submit(phase, alice, small_texts["BART"], on_commit)
    Submission.objects.filter(pk=first).update(status="running", attempts=3)
    settings.GEC_MAX_EXTERNAL_LOSSES = 0
    with on_commit():
        sweep_stuck_submissions(older_than=-1)
    assert Submission.objects.get(pk=first).status == "failed"
    assert second in [pk for pk, _ in sent]


def test_the_next_waiting_is_the_oldest(phase, small_texts, sent, on_commit):
    alice = make_user("alice")
    ids = [submit(phase, alice, small_texts[n], on_commit, n) for n in ("T5", "BART", "GECToR-BERT")]
    assert dispatch.next_waiting(ids[0]) == ids[1]


def test_too_many_waiting_uploads_is_429_naming_the_setting(
    phase, small_texts, alice_client, settings, sent, on_commit
):
    settings.GEC_MAX_QUEUED_UPLOADS = 2  # nothing scores them here: they stay queued
    with on_commit():
        assert upload(alice_client, small_texts["T5"]).status_code == 201
        assert upload(alice_client, small_texts["BART"]).status_code == 201
        response = upload(alice_client, small_texts["GECToR-BERT"])
    assert response.status_code == 429
    message = response.json()["errors"][0]["message"]
    assert "GEC_MAX_QUEUED_UPLOADS" in message and "2 uploads" in message
    Submission.objects.update(status="scored")
    assert upload(alice_client, small_texts["GECToR-BERT"]).status_code == 201


def test_the_page_says_429_too(phase, small_texts, alice, settings, client):
    settings.GEC_MAX_QUEUED_UPLOADS = 1
    team = accept_submission(
        phase, alice, system_name="a", filename="o.txt", content=small_texts["T5"].encode(), queue=False
    ).team
    assert team is not None
    client.force_login(alice)
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        f"/tasks/{phase.task.slug}/submit/",
        {"file": SimpleUploadedFile("o.txt", small_texts["BART"].encode()), "system_name": "b"},
    )
    assert response.status_code == 429
    assert b"GEC_MAX_QUEUED_UPLOADS" in response.content
