"""The remote command-line client (``gec-submit``) against a live server: log in, upload,
wait, read scores, line-numbered errors, list, and install from the repository."""

import json
import shutil
import subprocess
import sys

import pytest

from leaderboard_client.cli import main
from tests.conftest import ROOT

from .conftest import client_login, make_user


@pytest.fixture
def server(live_server, small_task, client_home):
    make_user("remote")
    return live_server.url


def login(server, monkeypatch):
    client_login(server, "remote", "pw-remote", monkeypatch)


def test_login_submit_wait_and_scores(server, small_texts, tmp_path, monkeypatch, capsys):
    login(server, monkeypatch)
    output = tmp_path / "t5.txt"
    output.write_text(small_texts["T5"])
    assert main(["submit", "small", str(output), "--system", "t5-remote", "--interval", "0.2"]) == 0
    printed = capsys.readouterr().out
    assert "scored" in printed and "errant.cs.f" in printed
    assert main(["list", "small"]) == 0
    listed = capsys.readouterr().out
    assert "t5-remote" in listed and "scored" in listed


def test_a_bad_file_prints_its_problems_by_line(server, small_texts, tmp_path, monkeypatch, capsys):
    login(server, monkeypatch)
    lines = small_texts["T5"].splitlines()
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines[:5] + ["bad\x00line"] + lines[6:]) + "\n")
    assert main(["submit", "small", str(bad), "--system", "broken"]) == 2
    assert "line 6:" in capsys.readouterr().err


def test_without_a_token_the_upload_is_refused(server, small_texts, tmp_path, capsys):
    output = tmp_path / "t5.txt"
    output.write_text(small_texts["T5"])
    assert main(["--server", server, "submit", "small", str(output), "--system", "anon"]) == 3
    assert "401" in capsys.readouterr().err


def test_an_unreachable_server_is_exit_4(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["--server", "http://127.0.0.1:9", "tasks"]) == 4
    assert "cannot reach" in capsys.readouterr().err


@pytest.mark.slow
def test_installs_from_the_repository_as_gec_submit(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "leaderboard_client", source / "leaderboard_client", ignore=shutil.ignore_patterns("__pycache__")
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([venv / "bin" / "pip", "install", "-q", str(source)], check=True)
    version = subprocess.run([venv / "bin" / "gec-submit", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("gec-submit ")


def test_choose_the_counted_one_and_download_its_sentences(
    server, small_task, small_texts, tmp_path, monkeypatch, capsys
):
    from leaderboard.models import Phase

    Phase.objects.filter(task=small_task).update(counting=Phase.Counting.CHOSEN)
    login(server, monkeypatch)
    ids = []
    for name in ("T5", "BART"):
        output = tmp_path / f"{name}.txt"
        output.write_text(small_texts[name])
        assert main(["submit", "small", str(output), "--system", name, "--interval", "0.2"]) == 0
        ids.append(int(capsys.readouterr().out.split("uploaded as submission ")[1].split()[0]))
    assert main(["choose", str(ids[0])]) == 0
    assert "now counts" in capsys.readouterr().out
    assert main(["list", "small", "--json"]) == 0
    listed = {s["id"]: s["counts"] for s in json.loads(capsys.readouterr().out)}
    assert listed == {ids[0]: True, ids[1]: False}
    target = tmp_path / "sentences.csv"
    assert main(["download", str(ids[0]), "--format", "csv", "-o", str(target)]) == 0
    assert len(target.read_text().splitlines()) == 1 + len(small_texts["T5"].splitlines())


def test_another_users_submission_is_not_found(server, small_texts, tmp_path, monkeypatch, capsys):
    from leaderboard.models import Submission
    from leaderboard.services.submissions.intake import accept_submission

    other = make_user("other")
    submission = accept_submission(
        small_task_phase(), other, system_name="theirs", filename="t.txt", content=small_texts["T5"].encode()
    )
    login(server, monkeypatch)
    assert main(["download", str(submission.pk)]) == 3
    assert "404" in capsys.readouterr().err
    assert main(["choose", str(submission.pk)]) == 3
    assert not Submission.objects.get(pk=submission.pk).chosen


def small_task_phase():
    from leaderboard.models import Phase

    return Phase.objects.get(task__slug="small")


def test_over_the_queued_limit_the_client_names_the_setting(
    server, small_texts, tmp_path, monkeypatch, capsys, settings
):
    """A team's waiting uploads per phase are capped; gec-submit says which setting."""
    settings.GEC_MAX_QUEUED_UPLOADS = 1
    settings.GEC_TASK_MODE = "celery"  # no worker here: the first upload stays queued
    monkeypatch.setattr("leaderboard.queue.celery_app.send_task", lambda *args, **kwargs: None)
    login(server, monkeypatch)
    output = tmp_path / "t5.txt"
    output.write_text(small_texts["T5"])
    assert main(["submit", "small", str(output), "--system", "first", "--no-wait"]) == 0
    capsys.readouterr()
    assert main(["submit", "small", str(output), "--system", "second", "--no-wait"]) != 0
    assert "GEC_MAX_QUEUED_UPLOADS" in capsys.readouterr().err
