"""With neither DATABASE_URL nor CELERY_BROKER_URL the platform runs on SQLite under
var/ and scores in a background thread: run in a subprocess with the plain settings."""

import os
import subprocess
import sys

from tests.conftest import ROOT, SUBSET_OUTPUTS, SUBSET_REFS, insight_head

from .conftest import SMALL_LINES

PROBE = """
import django, time
django.setup()
from django.conf import settings
from django.db import connection
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.queue import wait_for_background
from django.contrib.auth.models import User
assert connection.vendor == "sqlite", connection.vendor
assert settings.GEC_TASK_MODE == "thread", settings.GEC_TASK_MODE
src, ref, hyp = (open(p).read() for p in ("src.txt", "ref.txt", "hyp.txt"))
task = create_task("t", source=src, references=[("ref", ref)], metrics=["errant", "gotoscorer"])
started = time.monotonic()
submission = accept_submission(\
    task.phases.get(), User.objects.create(username="u"), system_name="s", filename="hyp.txt", content=hyp.encode()\
)
returned = time.monotonic() - started
wait_for_background()
submission.refresh_from_db()
print(submission.status, settings.DATABASES["default"]["NAME"], round(returned, 2))
"""


def test_embedded_mode_uses_sqlite_and_a_background_thread(tmp_path):
    (tmp_path / "src.txt").write_text(insight_head(SUBSET_OUTPUTS / "INPUT.txt", SMALL_LINES))
    (tmp_path / "ref.txt").write_text(insight_head(SUBSET_REFS[0], SMALL_LINES))
    (tmp_path / "hyp.txt").write_text(insight_head(SUBSET_OUTPUTS / "T5.txt", SMALL_LINES))
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "GEC_TASK_MODE")
    }
    env.update(DJANGO_SETTINGS_MODULE="leaderboard.settings", GEC_VAR_DIR=str(tmp_path / "var"), PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env, check=True, cwd=tmp_path)
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    status, database, returned = result.stdout.split()[-3:]
    assert status == "scored"
    assert database == str(tmp_path / "var" / "db.sqlite3")
    assert float(returned) < 2.0  # the upload returned before scoring (spaCy alone loads in ~5 s)
