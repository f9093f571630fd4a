"""``load_demo`` (run by every ``scripts/start``) says whether it loads the demos or finds
them loaded, and why the SEEDA demo was skipped."""

import io

import pytest
from django.core.management import call_command

from leaderboard.models import SharedTask

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def loaded():
    """The CoNLL-2014 demo as a second start finds it (its content does not matter here)."""
    SharedTask.objects.create(slug="conll14-demo", title="demo")


def test_a_second_start_does_not_say_first_start(loaded, settings, tmp_path):
    settings.SHARED_DIR = tmp_path
    printed = run()
    assert "is loaded already" in printed and "first start" not in printed


def test_says_why_seeda_was_skipped(loaded, settings, tmp_path):
    settings.SHARED_DIR = tmp_path
    assert f"SEEDA demo skipped: its data is not under {tmp_path / 'data' / 'seeda'}" in run()
    assert "SEEDA demo skipped (--no-seeda)" in run("--no-seeda")
