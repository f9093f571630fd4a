"""The remote command-line client (``gec-submit``) against a live server: log in, upload,
wait, read scores, line-numbered errors, list, and install from the repository."""
import shutil
import subprocess
import sys

import pytest

from leaderboard_client.cli import main
from tests.conftest import ROOT

from .conftest import make_user


@pytest.fixture
def server(live_server, small_task, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("GEC_SERVER", "GEC_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    make_user("remote")
    return live_server.url


def login(server, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("pw-remote\n"))
    assert main(["--server", server, "login", "remote", "--password-stdin"]) == 0


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
    shutil.copytree(ROOT / "leaderboard_client", source / "leaderboard_client", ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([venv / "bin" / "pip", "install", "-q", str(source)], check=True)
    version = subprocess.run([venv / "bin" / "gec-submit", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("gec-submit ")
