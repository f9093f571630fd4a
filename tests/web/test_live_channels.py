"""A team's live channels: the small files a member's open pages poll for their
own (the team's newest rows, an upload's status), written where the change happens and
served by the proxy without Django; Django serves the same files without a proxy."""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from leaderboard.models import Phase, Submission
from leaderboard.services.boards.channels import Channel, file_at, submission_channel, team_channel, write
from leaderboard.services.boards.publish import publish_team
from leaderboard.services.jobs.sweeper import sweep_channels
from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission
from tests.conftest import SUBSET_OUTPUTS, insight_head

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_dir(settings, tmp_path):
    settings.GEC_LIVE_DIR = tmp_path
    return tmp_path


def as_user(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def upload(phase, username: str = "alice", system: str = "again") -> Submission:
    content = insight_head(SUBSET_OUTPUTS / "BART.txt", 20).encode()
    return accept_submission(
        phase, User.objects.get(username=username), system_name=system, filename="b.txt", content=content, queue=False
    )


def team_of(username: str, task):
    return User.objects.get(username=username).memberships.get(task=task).team


def test_names_are_keyed_hashes_of_what_they_are_about(settings):
    names = {team_channel(1, 1).token, team_channel(2, 1).token, team_channel(1, 2).token, submission_channel(1).token}
    assert len(names) == 4 and all(len(name) == 32 for name in names)
    before = team_channel(1, 1).url
    settings.SECRET_KEY = "another secret"
    assert team_channel(1, 1).url != before  # nobody without the key can name one


def test_a_member_leaving_or_joining_renames_the_teams_channels(insight_task, live_dir):
    """A leaver keeps no name the team's channels are written under from then on."""
    from leaderboard.models import Membership

    alice = insight_task["submissions"]["T5"]
    names = (team_channel(alice.team_id, alice.phase_id).url, submission_channel(alice.pk).url)
    newcomer = User.objects.create_user("newcomer")
    Membership.objects.create(user=newcomer, team_id=alice.team_id, task=insight_task["task"])
    joined = (team_channel(alice.team_id, alice.phase_id).url, submission_channel(alice.pk).url)
    assert joined[0] != names[0] and joined[1] != names[1]
    Membership.objects.filter(user=newcomer).delete()
    assert (team_channel(alice.team_id, alice.phase_id).url, submission_channel(alice.pk).url) == names


def test_only_a_channels_own_names_reach_a_file(live_dir):
    token = team_channel(1, 1).token
    assert file_at("team", f"{token}.html") == live_dir / "team" / f"{token}.html"
    for kind, name in (
        ("team", f"{token}.json"),
        ("submission", f"{token}.html"),
        ("other", f"{token}.html"),
        ("team", "../x.html"),
        ("team", token.upper() + ".html"),
        ("team", token),
        ("team", f"{token}.html.bak"),
    ):
        assert file_at(kind, name) is None, (kind, name)


def test_a_file_is_replaced_whole_and_only_when_it_changed(live_dir):
    channel = Channel("team", team_channel(1, 1).token)
    assert write(channel, b"one") is True
    assert write(channel, b"one") is False
    assert write(channel, b"two") is True
    assert channel.path.read_bytes() == b"two" and [p.name for p in channel.path.parent.iterdir()] == [
        channel.path.name
    ]


def test_django_serves_a_channel_without_a_session_nor_a_query(live_dir, client, django_assert_num_queries):
    channel = submission_channel(5)
    write(channel, b'{"id": 5}')
    with django_assert_num_queries(0):
        response = client.get(channel.url)
    assert (response.status_code, response["Content-Type"], response["Cache-Control"], response.content) == (
        200,
        "application/json",
        "no-store",
        b'{"id": 5}',
    )
    assert client.get(submission_channel(6).url).status_code == 404  # never written
    assert client.get("/live/team/../../settings.html").status_code == 404


def test_an_upload_and_its_scoring_write_the_status_and_the_rows_its_team_sees(
    insight_task, live_dir, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # written once the change commits
        pending = upload(insight_task["phase"])
    status = submission_channel(pending.pk).path
    rows = team_channel(pending.team_id, pending.phase_id).path
    assert json.loads(status.read_text()) == {"id": pending.pk, "status": "queued", "finished": False, "progress": 0.0}
    assert 'data-pending="1"' in rows.read_text() and "again" in rows.read_text()
    with django_capture_on_commit_callbacks(execute=True):
        score_submission(pending.pk)
    assert json.loads(status.read_text()) == {"id": pending.pk, "status": "scored", "finished": True, "progress": 1.0}
    assert 'data-pending="0"' in rows.read_text() and 'data-status="scored"' in rows.read_text()


def test_a_blind_phase_channel_says_received_as_its_page_does(
    insight_task, live_dir, django_capture_on_commit_callbacks
):
    phase = insight_task["phase"]
    Phase.objects.filter(pk=phase.pk).update(blind=True, results_visibility=Phase.Visibility.ORGANIZERS)
    with django_capture_on_commit_callbacks(execute=True):
        pending = upload(Phase.objects.get(pk=phase.pk))
        score_submission(pending.pk)
    assert json.loads(submission_channel(pending.pk).path.read_text()) == {
        "id": pending.pk,
        "status": "received",
        "finished": True,
        "progress": None,
    }
    rows = team_channel(pending.team_id, phase.pk).path.read_text()
    assert 'data-status="received"' in rows and 'data-status="scored"' not in rows and 'data-pending="1"' not in rows


def test_a_members_pages_poll_the_channels_an_organizers_django(insight_task, live_dir):
    task, phase = insight_task["task"], insight_task["phase"]
    channel = team_channel(team_of("alice", task).pk, phase.pk).url
    publish_team(phase, team_of("alice", task))  # what the team's last upload wrote
    page = as_user("alice").get(f"/tasks/{task.slug}/").content.decode()
    assert f'data-own-url="{channel}"' in page
    since = json.loads(page.split('<script id="own-since" type="application/json">')[1].split("</script>")[0])
    assert since == as_user("alice").get(channel).content.decode()  # the page starts from what the channel holds
    task.organizers.add(
        User.objects.get(username="alice")
    )  # an organizer in a team may see more than the team: Django answers
    assert (
        f'data-own-url="/tasks/{task.slug}/own/?phase={phase.kind}"'
        in as_user("alice").get(f"/tasks/{task.slug}/").content.decode()
    )
    task.organizers.remove(User.objects.get(username="alice"))
    for other in (Client(), as_user("bob")):  # nobody else is told the name
        assert channel not in other.get(f"/tasks/{task.slug}/").content.decode()


def test_my_submissions_watches_the_teams_channel(insight_task, live_dir):
    task, phase = insight_task["task"], insight_task["phase"]
    page = as_user("alice").get(f"/tasks/{task.slug}/submissions/").content.decode()
    assert f'data-live-version="{team_channel(team_of("alice", task).pk, phase.pk).url}"' in page


def test_a_page_writes_no_channel_and_a_phase_that_ended_is_mended_by_the_sweeper(insight_task, live_dir):
    """Reads write nothing: what no upload announces (a phase ending) the sweeper writes."""
    task, phase = insight_task["task"], insight_task["phase"]
    channel = team_channel(team_of("alice", task).pk, phase.pk)
    write(channel, b"stale")
    as_user("alice").get(f"/tasks/{task.slug}/")
    assert channel.path.read_bytes() == b"stale"
    Phase.objects.filter(pk=phase.pk).update(ends_at=timezone.now() - dt.timedelta(seconds=1))
    sweep_channels()
    assert b"Your team's submissions" in channel.path.read_bytes()


def test_a_channel_that_cannot_be_written_never_fails_a_score(
    insight_task, settings, tmp_path, django_capture_on_commit_callbacks
):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    settings.GEC_LIVE_DIR = blocked / "live"  # under a file: every write fails
    with django_capture_on_commit_callbacks(execute=True) as published:
        pending = upload(insight_task["phase"])
        assert score_submission(pending.pk) == "scored"
    assert published  # the writes were tried, and failed quietly


def test_without_a_shared_directory_pages_ask_django(insight_task, settings, django_capture_on_commit_callbacks):
    """``GEC_LIVE_DIR`` empty (workers on machines that share no directory with the web):
    nothing is written, and a member's pages poll Django for their own, as an organizer's."""
    settings.GEC_LIVE_DIR = ""
    task, phase = insight_task["task"], insight_task["phase"]
    with django_capture_on_commit_callbacks(execute=True):
        pending = upload(phase)
        score_submission(pending.pk)
    alice = as_user("alice")
    assert (
        f'data-own-url="/tasks/{task.slug}/own/?phase={phase.kind}"'
        in alice.get(f"/tasks/{task.slug}/").content.decode()
    )
    assert (
        f'data-url="/api/submissions/{pending.pk}/status/"'
        in alice.get(f"/tasks/{task.slug}/submissions/{pending.pk}/").content.decode()
    )
    assert "/tasks/insight/version/" in alice.get(f"/tasks/{task.slug}/submissions/").content.decode()
    assert alice.get(submission_channel(pending.pk).url).status_code == 404
