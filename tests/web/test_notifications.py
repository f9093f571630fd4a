"""An email to the team when its submission is scored or fails, after the commit; opt-out; none from a blind phase
while its results are hidden."""

import pytest
from django.contrib.auth.models import User
from django.core import mail

from leaderboard.models import Phase, Profile
from leaderboard.services.scoring_jobs.submission import fail_submission, score_submission
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.services.teams import actions as teams
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 5


@pytest.fixture
def task(db):
    from leaderboard.services.hosting.task_creation import create_task

    return create_task(
        "mail",
        title="Mail task",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
    )


@pytest.fixture
def team(task):
    ann = User.objects.create_user("ann", email="ann@example.org", password="pw")
    ben = User.objects.create_user("ben", email="ben@example.org", password="pw")
    team = teams.register_team(ann, task, "Mailers")
    teams.join_team(ben, task, team.invite_code)
    return team


def upload(task, team):
    content = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()
    return accept_submission(
        task.phases.get(), None, team=team, system_name="t5", filename="t5.txt", content=content, queue=False
    )


def test_every_member_is_told_the_scores_after_the_commit(task, team, django_capture_on_commit_callbacks):
    submission = upload(task, team)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        score_submission(submission.pk)
    assert mail.outbox == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "ben@example.org"]
    message = mail.outbox[0]
    assert "scored" in message.subject and "ERRANT F: 0." in message.body
    assert f"/tasks/mail/submissions/{submission.pk}/" in message.body


def test_a_failure_is_told_with_its_message(task, team, django_capture_on_commit_callbacks):
    submission = upload(task, team)
    with django_capture_on_commit_callbacks(execute=True):
        fail_submission(submission.pk, "line 3: the output line is empty", cause="input")
    assert len(mail.outbox) == 2 and "failed" in mail.outbox[0].subject
    assert "line 3: the output line is empty" in mail.outbox[0].body


def test_members_who_opted_out_get_nothing(task, team, django_capture_on_commit_callbacks):
    Profile.objects.create(user=User.objects.get(username="ben"), notify_by_email=False)
    submission = upload(task, team)
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(submission.pk)
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


def test_a_blind_phase_mails_nothing_while_its_results_are_hidden(task, team, django_capture_on_commit_callbacks):
    """A mail's time told the team when scoring ended."""
    Phase.objects.filter(task=task).update(blind=True, results_visibility="organizers")
    scored, failed = upload(task, team), upload(task, team)
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(scored.pk)
        fail_submission(failed.pk, "the file broke the scorer", cause="input")
    assert mail.outbox == []
    Phase.objects.filter(task=task).update(revealed=True)
    later = upload(task, team)
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(later.pk)  # once revealed, the mail says what the pages say
    assert len(mail.outbox) == 2 and "scored" in mail.outbox[0].subject and "ERRANT" in mail.outbox[0].body


def test_hidden_results_are_not_mailed(task, team, django_capture_on_commit_callbacks):
    Phase.objects.filter(task=task).update(results_visibility="organizers")
    submission = upload(task, team)
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(submission.pk)
    assert "stay hidden" in mail.outbox[0].body and "ERRANT" not in mail.outbox[0].body


def test_a_rescore_tells_nobody(task, team, django_capture_on_commit_callbacks):
    submission = upload(task, team)
    score_submission(submission.pk)
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(submission.pk, force=True)
    assert mail.outbox == []
