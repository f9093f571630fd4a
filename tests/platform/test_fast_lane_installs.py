"""``bash scripts/test --fast`` installs no browser nor proxy: only the full run (which
has their tests) calls scripts/browser and scripts/proxy."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(tmp_path: Path, *args: str) -> list[str]:
    """scripts/test with every helper it calls replaced by a recorder; what it called."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "test").write_text((ROOT / "scripts" / "test").read_text())
    calls = tmp_path / "calls"
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    for name in ("services", "browser", "proxy"):
        (scripts / name).write_text(f'echo {name} >> "{calls}"\n')
    (scripts / "bootstrap").write_text(f'echo "{tmp_path / "venv"}"\n')
    for tool in ("lint-imports", "ruff", "mypy", "python"):
        (venv / tool).write_text(f'#!/bin/sh\necho " KEPT"\necho {tool} "$@" >> "{calls}"\n')
        (venv / tool).chmod(0o755)
    (venv / "node").write_text(f'#!/bin/sh\necho node "$@" >> "{calls}"\n')  # the static clients' tests
    (venv / "node").chmod(0o755)
    path = f"{venv}{os.pathsep}{os.environ.get('PATH', '')}"
    subprocess.run(
        ["bash", str(scripts / "test"), *args], check=True, capture_output=True, env={**os.environ, "PATH": path}
    )
    return calls.read_text().split("\n")


def test_the_fast_lane_installs_no_browser_nor_proxy(tmp_path):
    called = run_script(tmp_path, "--fast")
    assert "services" in called and "browser" not in called and "proxy" not in called
    assert any(line.startswith("python -m pytest -m not (browser") for line in called)


def test_the_full_run_installs_both(tmp_path):
    called = run_script(tmp_path)
    assert "browser" in called and "proxy" in called
