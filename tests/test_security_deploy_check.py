"""``manage.py check --deploy`` is clean with production settings (DEBUG=0, SECRET_KEY, ALLOWED_HOSTS)."""
import os
import secrets
import subprocess
import sys

from tests.conftest import ROOT


def test_check_deploy_is_clean_in_production(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DEBUG")}
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(60), ALLOWED_HOSTS="gec.example.org", GEC_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="leaderboard.settings")
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    env.update(DEBUG="0", GEC_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="leaderboard.settings")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr
