"""``gec-submit`` without ``--phase``, a public dev and a hidden test phase open: the upload
lands in dev and the board is dev's; with only the hidden phase open it refuses, listing
the phases, and ``--phase test`` works."""

import pytest
from django.utils import timezone

from leaderboard.models import Phase, Submission
from leaderboard.services.hosting.task_creation import add_phase
from leaderboard_client.cli import main

from .conftest import client_login, make_user


@pytest.fixture
def server(live_server, small_task, client_home, monkeypatch):
    make_user("remote")
    add_phase(small_task, small_task.phases.get().dataset, kind="test", results_visibility=Phase.Visibility.ORGANIZERS)
    client_login(live_server.url, "remote", "pw-remote", monkeypatch)
    return live_server.url


@pytest.fixture
def output(small_texts, tmp_path):
    path = tmp_path / "t5.txt"
    path.write_text(small_texts["T5"])
    return str(path)


def test_submit_without_phase_lands_in_dev(server, output, capsys):
    assert main(["submit", "small", output, "--system", "t5", "--no-wait"]) == 0
    assert "to the dev phase" in capsys.readouterr().out
    assert list(Submission.objects.values_list("phase__kind", flat=True)) == ["dev"]


def test_the_leaderboard_without_phase_is_dev(server, capsys):
    assert main(["leaderboard", "small"]) == 0
    assert "dev phase" in capsys.readouterr().out


def test_only_hidden_phases_open_it_refuses_and_lists_them(server, output, capsys):
    Phase.objects.filter(kind="dev").update(frozen_at=timezone.now())
    assert main(["submit", "small", output, "--system", "t5", "--no-wait"]) == 3
    err = capsys.readouterr().err
    assert "give --phase KEY with one of: test (results hidden until the organizers reveal them)" in err
    assert not Submission.objects.exists()
    assert main(["submit", "small", output, "--system", "t5", "--phase", "test", "--no-wait"]) == 0
    assert list(Submission.objects.values_list("phase__kind", flat=True)) == ["test"]
