"""``manage.py check --deploy`` is clean with production settings (DATABASE_URL, DEBUG=0, SECRET_KEY, ALLOWED_HOSTS);
the embedded mode runs with DEBUG off on a key of its own."""

import os
import secrets
import subprocess
import sys

from tests.conftest import ROOT

PRODUCTION_DATABASE = "postgresql://gec@db.example.org:5432/gec"  # parsed, never connected to


def test_check_deploy_is_clean_in_production(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DEBUG")}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="gec.example.org",
        GEC_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="leaderboard.settings",
        DATABASE_URL=PRODUCTION_DATABASE,
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    env.update(
        DEBUG="0",
        GEC_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="leaderboard.settings",
        DATABASE_URL=PRODUCTION_DATABASE,
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_the_embedded_mode_keeps_a_key_of_its_own_and_debug_off(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")
    }
    env.update(GEC_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="leaderboard.settings")
    probe = (
        "from django.conf import settings; print(settings.DEBUG, settings.SECURE_SSL_REDIRECT, "
        "len(settings.SECRET_KEY))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", probe],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        for _ in range(2)
    ]
    assert runs[0].stdout.split()[-3:] == ["False", "False", str(len((tmp_path / "secret_key").read_text().strip()))]
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert runs[0].stdout == runs[1].stdout  # the same key on the next start
