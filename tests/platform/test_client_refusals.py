"""``gec-submit`` says what a refusal is: a team that awaits the
organizers' approval is told so, not that its file was refused; a revoked token, or
none, is told to log in again; a bad file still lists its problems by line."""

import pytest

from leaderboard.models import SharedTask, Team
from leaderboard_client.cli import main
from tests.support.task_pages_support import OUTPUT, SLUG, season_task

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(live_server, client_home):
    season_task(signup=SharedTask.Signup.APPROVAL)
    return live_server.url


def token_of(username: str) -> str:
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=User.objects.get(username=username))[0].key


def submit(server, token, path, capsys) -> tuple[int, str]:
    status = main(
        [
            "--server",
            server,
            "--token",
            token,
            "submit",
            SLUG,
            str(path),
            "--system",
            "s",
            "--phase",
            "dev",
            "--no-wait",
        ]
    )
    return status, capsys.readouterr().err


def test_a_team_awaiting_approval_is_told_so(server, tmp_path, capsys):
    Team.objects.filter(name="P").update(approved=False)
    out = tmp_path / "out.txt"
    out.write_text(OUTPUT, encoding="utf-8")
    status, err = submit(server, token_of("pat"), out, capsys)
    assert status == 3
    assert "waits for the organizers' approval before it may submit" in err and "not accepted" not in err


def test_a_bad_file_still_lists_its_problems(server, tmp_path, capsys):
    out = tmp_path / "out.txt"
    out.write_text("one line\n", encoding="utf-8")
    status, err = submit(server, token_of("pat"), out, capsys)
    assert status == 2 and "the file was not accepted:" in err and "line 1:" in err


def test_a_revoked_token_is_told_to_log_in_again(server, tmp_path, capsys):
    from rest_framework.authtoken.models import Token

    key = token_of("pat")
    Token.objects.filter(key=key).delete()
    assert main(["--server", server, "--token", key, "list"]) == 3
    err = capsys.readouterr().err
    assert "no longer accepts your token" in err and f"gec-submit --server {server} login" in err
    out = tmp_path / "out.txt"
    out.write_text(OUTPUT, encoding="utf-8")
    status, err = submit(server, key, out, capsys)
    assert status == 3 and "log in again" in err and "not accepted" not in err


def test_no_token_is_told_to_log_in(server, capsys):
    assert main(["--server", server, "list"]) == 3
    err = capsys.readouterr().err
    assert f"not logged in to {server}" in err and "login USERNAME" in err
