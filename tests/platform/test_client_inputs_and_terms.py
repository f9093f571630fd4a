"""``gec-submit download-input`` and ``accept-terms`` against a live server: the inputs
land in the file the server names (or ``-o``), the default phase without ``--phase``; an
upload before the terms are accepted is refused with the command that accepts them."""

import io

import pytest

from leaderboard_client.cli import main
from tests.support.task_pages_support import OUTPUT, SLUG, SOURCE, season_task

from .conftest import client_login

TERMS = "Use the data for research only."


@pytest.fixture
def server(live_server, db, client_home, monkeypatch, tmp_path):
    from leaderboard.services.hosting.task_pages import save_page

    save_page(season_task(), "terms", TERMS)
    client_login(live_server.url, "pat", "pw", monkeypatch)
    monkeypatch.chdir(tmp_path)
    return live_server.url


def test_download_input_names_the_file_after_the_phase(server, tmp_path, capsys):
    from leaderboard.access import task_phase
    from leaderboard.models import SharedTask

    default = task_phase(SharedTask.objects.get(slug=SLUG), None).kind
    assert main(["download-input", SLUG]) == 0
    assert (tmp_path / f"{SLUG}-{default}.src.txt").read_text() == SOURCE
    assert main(["download-input", SLUG, "--phase", "test", "-o", str(tmp_path / "test.txt")]) == 0
    assert (tmp_path / "test.txt").read_text() == SOURCE and "wrote" in capsys.readouterr().out
    assert main(["download-input", SLUG, "--phase", "dev", "-o", "-"]) == 0
    assert capsys.readouterr().out == SOURCE


def test_download_input_refusals_say_why(server, capsys):
    from leaderboard.models import Team

    Team.objects.filter(name="P").update(approved=False)
    assert main(["download-input", SLUG, "--phase", "dev"]) == 3
    assert "waits for the organizers' approval" in capsys.readouterr().err


def test_submit_is_refused_until_accept_terms(server, tmp_path, monkeypatch, capsys):
    output = tmp_path / "out.txt"
    output.write_text(OUTPUT)
    assert main(["submit", SLUG, str(output), "--system", "s", "--phase", "dev", "--no-wait"]) == 3
    assert f"gec-submit accept-terms {SLUG}" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert main(["accept-terms", SLUG]) == 3
    assert TERMS in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert main(["accept-terms", SLUG]) == 0
    assert "accepted the terms" in capsys.readouterr().out
    assert main(["accept-terms", SLUG, "--yes"]) == 0
    assert "you accepted the terms" in capsys.readouterr().out
    assert main(["submit", SLUG, str(output), "--system", "s", "--phase", "dev", "--no-wait"]) == 0
