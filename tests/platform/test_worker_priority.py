"""Scoring workers run below the web's CPU priority (GEC_WORKER_NICE, leaderboard/celery.py),
so on shared cores a poll of the board does not wait behind a scoring job."""

import os
import subprocess
import sys

import yaml

from tests.conftest import ROOT

SHOW_NICE = (
    "import os, django; django.setup(); from leaderboard.celery import autogroup_nice, lower_worker_priority; "
    "before = autogroup_nice(); lower_worker_priority(); "
    "print(os.getpriority(os.PRIO_PROCESS, 0), before, autogroup_nice())"
)


def worker_init_in_child(value: str | None, start: int = 0, own_session: bool = False) -> tuple[int, str, str]:
    """(process nice, autogroup nice before, after) of a child process running ``worker_init``.
    The child reports its own group before: some kernels show a group only to a new session,
    some never, so no expectation rests on this process's view."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "leaderboard.settings", "SECRET_KEY": "test"}
    env.pop("GEC_WORKER_NICE", None)
    if value is not None:
        env["GEC_WORKER_NICE"] = value
    run = subprocess.run(
        [sys.executable, "-c", SHOW_NICE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: os.nice(start),
        start_new_session=own_session,
    )
    nice, before, after = run.stdout.split()[-3:]
    return int(nice), before, after


def after_worker_init(value: str | None, start: int = 0, own_session: bool = False) -> tuple[int, str]:
    """(process nice, autogroup nice) after ``worker_init``; the group "None" where the kernel shows none."""
    nice, _, after = worker_init_in_child(value, start, own_session)
    return nice, after


def test_workers_lower_their_priority_by_default():
    """Below the web's, not to the bottom: a storm of requests leaves scoring a floor."""
    assert after_worker_init(None)[0] == 3


def test_the_setting_chooses_the_value_and_zero_leaves_it():
    assert after_worker_init("5")[0] == 5
    assert after_worker_init("0")[0] == 0


def test_a_worker_started_lower_is_not_raised():
    assert after_worker_init("5", start=10)[0] == 10


def test_a_worker_leading_its_own_session_lowers_its_scheduling_group():
    """Its autogroup would otherwise share the cores equally with the web's. On a kernel
    without autogroup the worker starts all the same, with only its own nice lowered."""
    for value in ("19", "0"):
        nice, before, after = worker_init_in_child(value, own_session=True)
        assert (nice, after) == (int(value), "None" if before == "None" else value)


def test_a_worker_in_a_shared_session_leaves_the_group_alone():
    """The group is then shared with the shell's other jobs (the web's, perhaps)."""
    _, before, after = worker_init_in_child("19")
    assert after == before


def fake_autogroup(monkeypatch, tmp_path, content: str, leader: bool):
    """This process, seen through a fake /proc/self/autogroup, leading its session or not."""
    import leaderboard.celery as worker

    fake = tmp_path / "autogroup"
    fake.write_text(content)
    monkeypatch.setattr(worker, "Path", lambda _: fake)
    monkeypatch.setattr(worker.os, "getsid", lambda _: 4242 if leader else 1)
    monkeypatch.setattr(worker.os, "getpid", lambda: 4242)
    monkeypatch.setattr(worker.os, "getpriority", lambda *_: 0)
    monkeypatch.setattr(worker.os, "setpriority", lambda *_: None)
    return fake


def test_the_group_rule_holds_on_any_kernel(monkeypatch, tmp_path, settings):
    """The same rule checked through a fake file, so it runs where the kernel has none:
    a session leader lowers its group, never raises it; a shared session leaves it."""
    import leaderboard.celery as worker

    settings.GEC_WORKER_NICE = 7
    for content, leader, after in (
        ("/autogroup-9 nice 0", True, "7"),
        ("/autogroup-9 nice 12", True, "/autogroup-9 nice 12"),
        ("/autogroup-9 nice 0", False, "/autogroup-9 nice 0"),
    ):
        fake = fake_autogroup(monkeypatch, tmp_path, content, leader)
        worker.lower_worker_priority()
        assert fake.read_text() == after, (content, leader)


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
