"""A CI that cannot go green on a skipped platform: with ``CI`` set, a
test that needs a missing service fails instead of skipping; without it, the skip is
shown. Shown here by running real test files in a subprocess with the service's address
pointed at a closed port. Every skip for a missing part goes through tests/support/needs.py;
``.ci/run`` sets CI and runs the README's command; ``scripts/test`` runs ruff first."""

import os
import re
import socket
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow
GUARD = "CI is set, so this fails instead of skipping"


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_pytest(target: str, ci: bool, **env) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "DATABASE_URL", "GEC_TEST_REDIS")} | env
    if ci:
        environment["CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", target, "-rs", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    "service, target, env",
    [
        (
            "Redis",
            "tests/platform/test_integration_worker_kills.py::test_a_job_killed_twice_from_outside_is_scored_and_costs_nothing",
            lambda port: {"GEC_TEST_REDIS": f"127.0.0.1:{port}"},
        ),
        ("PostgreSQL", "tests/web/test_team_size_race.py", lambda port: {"GEC_TEST_POSTGRES": f"127.0.0.1:{port}"}),
    ],
)
def test_a_missing_service_fails_on_ci_and_is_a_visible_skip_elsewhere(service, target, env):
    port = closed_port()
    on_ci = run_pytest(target, ci=True, **env(port))
    assert on_ci.returncode == 1, on_ci.stdout + on_ci.stderr
    assert (
        GUARD in on_ci.stdout
        and f"missing from this machine: {service}" in on_ci.stdout
        and re.search(r"\b1 (failed|error)\b", on_ci.stdout)
    ), on_ci.stdout
    elsewhere = run_pytest(target, ci=False, **env(port))
    assert elsewhere.returncode == 0, elsewhere.stdout + elsewhere.stderr
    assert "1 skipped" in elsewhere.stdout and f"missing from this machine: {service}" in elsewhere.stdout, (
        elsewhere.stdout
    )
    assert "skipped because a part of the platform is missing here" in elsewhere.stdout


SKIPS = re.compile(r"pytest\.skip\b|\.skipif\(|importorskip\(|pytest\.xfail\(|mark\.xfail\b")


def test_every_skip_goes_through_the_guard():
    """No test file skips on its own: only tests/support/needs.py (the CI guard) and the SEEDA guard
    (lines naming NOT_SHIPPED, tests/conftest.py) do."""
    own = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name in ("needs.py", "test_ci_guard.py"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SKIPS.search(line) and "NOT_SHIPPED" not in line and "unshipped" not in line:
                own.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not own, "skip through tests/support/needs.py (needs / missing / package):\n" + "\n".join(own)


def test_ci_runs_the_readme_command_with_ci_set_and_the_lint_runs_first():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line for line in ci if line.strip() and not line.startswith("#")]
    assert commands[-2:] == ["export CI=1", "bash scripts/test"]
    script = (ROOT / "scripts" / "test").read_text()
    assert script.index('ruff" check') < script.index("-m pytest")
    requirements = (ROOT / "requirements-dev.txt").read_text()
    assert re.search(r"^ruff==[\d.]+$", requirements, re.M)
