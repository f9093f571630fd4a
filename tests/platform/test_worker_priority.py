"""Scoring workers run below the web's CPU priority (GEC_WORKER_NICE, leaderboard/celery.py),
so on shared cores a poll of the board does not wait behind a scoring job."""
import os
import subprocess
import sys

import yaml

from leaderboard.celery import autogroup_nice
from tests import needs
from tests.conftest import ROOT

SHOW_NICE = (
    "import os, django; django.setup(); from leaderboard.celery import autogroup_nice, lower_worker_priority; "
    "lower_worker_priority(); print(os.getpriority(os.PRIO_PROCESS, 0), autogroup_nice())"
)


def after_worker_init(value: str | None, start: int = 0, own_session: bool = False) -> tuple[int, str]:
    """(process nice, autogroup nice) of a process after ``worker_init``, in a child process."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "leaderboard.settings", "SECRET_KEY": "test"}
    env.pop("GEC_WORKER_NICE", None)
    if value is not None:
        env["GEC_WORKER_NICE"] = value
    run = subprocess.run(
        [sys.executable, "-c", SHOW_NICE], cwd=ROOT, env=env, capture_output=True, text=True, check=True,
        preexec_fn=lambda: os.nice(start), start_new_session=own_session,
    )
    nice, group = run.stdout.split()[-2:]
    return int(nice), group


def test_workers_lower_their_priority_by_default():
    """Below the web's, not to the bottom: a storm of requests leaves scoring a floor (issue 33)."""
    assert after_worker_init(None)[0] == 3


def test_the_setting_chooses_the_value_and_zero_leaves_it():
    assert after_worker_init("5")[0] == 5
    assert after_worker_init("0")[0] == 0


def test_a_worker_started_lower_is_not_raised():
    assert after_worker_init("5", start=10)[0] == 10


@needs.needs(autogroup_nice() is not None, "a kernel with a readable autogroup (/proc/self/autogroup)")
def test_a_worker_leading_its_own_session_lowers_its_scheduling_group():
    """Its autogroup would otherwise share the cores equally with the web's."""
    assert after_worker_init("19", own_session=True) == (19, "19")
    assert after_worker_init("0", own_session=True) == (0, "0")


@needs.needs(autogroup_nice() is not None, "a kernel with a readable autogroup (/proc/self/autogroup)")
def test_a_worker_in_a_shared_session_leaves_the_group_alone():
    """The group is then shared with the shell's other jobs (the web's, perhaps)."""
    assert after_worker_init("19")[1] == str(autogroup_nice())


def test_compose_workers_state_it():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    assert compose["x-app"]["environment"]["GEC_WORKER_NICE"] == "${GEC_WORKER_NICE:-3}"
    services = compose["services"]
    # a container is a cgroup: nice inside it does not rank it against the web's
    assert services["worker"]["cpu_shares"] == services["worker-large"]["cpu_shares"] == 512  # half the web's 1024
    assert "cpu_shares" not in services["web"]


def test_an_empty_or_missing_autogroup_file_reads_as_none(monkeypatch, tmp_path):
    """Some sandboxes show /proc/self/autogroup empty: the worker starts all the same."""
    import leaderboard.celery as worker

    real_path = worker.Path
    fake = tmp_path / "autogroup"
    monkeypatch.setattr(worker, "Path", lambda _: fake)
    for content in ("", "garbage"):
        fake.write_text(content)
        assert worker.autogroup_nice() is None
        worker.lower_autogroup(19)
        assert fake.read_text() == content
    monkeypatch.setattr(worker, "Path", lambda _: real_path(tmp_path / "absent"))
    assert worker.autogroup_nice() is None
