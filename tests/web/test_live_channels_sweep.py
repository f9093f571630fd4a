"""The sweeper removes the live channel files no member's page names any more: a member
joining or leaving renames every channel of the team, and a deleted upload's or team's
names are never written again, so their old files would otherwise stay for good (and
readable by whoever kept a name: a leaver)."""

from __future__ import annotations

import os
import time

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from leaderboard.models import Membership
from leaderboard.services.boards.channels import names_in_use, submission_channel, sweep, team_channel, write
from leaderboard.services.jobs.sweeper import sweep_channels

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_dir(settings, tmp_path):
    settings.GEC_LIVE_DIR = tmp_path
    return tmp_path


def aged(*paths, seconds: float = 3600) -> None:
    """Written an hour ago: past the sweeper's grace."""
    for path in paths:
        then = time.time() - seconds
        os.utime(path, (then, then))


def test_a_member_joining_leaves_the_old_names_to_the_sweeper(insight_task, live_dir):
    alice = insight_task["submissions"]["T5"]
    before = team_channel(alice.team_id, alice.phase_id), submission_channel(alice.pk)
    for channel in before:
        write(channel, b"before")
    Membership.objects.create(user=User.objects.create_user("newcomer"), team_id=alice.team_id, task=alice.phase.task)
    after = team_channel(alice.team_id, alice.phase_id), submission_channel(alice.pk)
    for channel in after:
        write(channel, b"after")
    aged(*(c.path for c in (*before, *after)))
    assert sweep_channels() == 2
    assert not any(c.path.exists() for c in before)
    assert all(c.path.read_bytes() == b"after" for c in after)  # what a page names now stays, however old


def test_what_a_page_names_now_is_kept_and_only_that(insight_task, live_dir):
    names = names_in_use()
    for submission in insight_task["submissions"].values():
        assert submission_channel(submission.pk).path.name in names["submission"]
        if submission.team.memberships.exists():
            assert team_channel(submission.team_id, submission.phase_id).path.name in names["team"]
    stray = [live_dir / "team" / f"{'0' * 32}.html", live_dir / "submission" / ".aside.json.123"]
    for path in stray:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    assert sweep() == 0  # just written: a name made since the sweeper read the members is younger
    aged(*stray)
    assert sweep() == 2 and not any(path.exists() for path in stray)


def test_a_deleted_uploads_file_goes(insight_task, live_dir):
    submission = insight_task["submissions"]["BART"]
    channel = submission_channel(submission.pk)
    write(channel, b'{"status": "scored"}')
    aged(channel.path)
    assert sweep() == 0
    submission.delete()
    assert sweep() == 1 and not channel.path.exists()


def test_the_sweep_command_says_what_it_removed(live_dir, capsys):
    (live_dir / "team").mkdir()
    old = live_dir / "team" / f"{'a' * 32}.html"
    old.write_bytes(b"x")
    aged(old)
    call_command("sweep")
    assert "removed 1 live channel file(s)" in capsys.readouterr().out and not old.exists()


def test_without_a_shared_directory_nothing_is_swept(settings):
    settings.GEC_LIVE_DIR = ""
    assert sweep() == 0
