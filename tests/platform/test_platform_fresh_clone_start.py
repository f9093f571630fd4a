"""`bash scripts/start` on a fresh clone with nothing beside it (no ../shared, no
services configured) serves the bundled demo board over HTTP, on the port asked for."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clone_files(destination):
    """The checkout's tracked and new files, as a clone of it would hold them."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read()


def test_start_serves_the_bundled_demos_on_a_fresh_clone(tmp_path):
    clone = tmp_path / "alone" / "repo"
    clone_files(clone)
    assert not (clone.parent / "shared").exists()
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "REDIS_URL", "GEC_", "DJANGO_"))
    }
    env.update(PORT=str(port), GEC_VENV=sys.prefix)
    server = subprocess.Popen(
        ["bash", "scripts/start"],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline, page = time.monotonic() + 480, None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                status, page = get(f"http://127.0.0.1:{port}/tasks/conll14-demo/")
                break
            except OSError:
                time.sleep(2)
        assert page is not None, server.stdout.read().decode() if server.poll() is not None else "no answer in time"
        assert status == 200 and b"Careful" in page
        status, body = get(f"http://127.0.0.1:{port}/api/tasks/conll14-demo/leaderboard/")
        rows = json.loads(body)["rows"]
        assert {r["system_name"] for r in rows} == {"INPUT", "Careful", "Balanced", "Eager", "Noisy"}
        status, page = get(f"http://127.0.0.1:{port}/tasks/multigec-demo/")  # the multilingual demo beside it
        assert (
            status == 200
            and b"Macro average" in page
            and all(name in page for name in (b"uk-ua-gec", b"cs-geccc", b"is-iceec"))
        )
        status, body = get(f"http://127.0.0.1:{port}/api/tasks/multigec-demo/leaderboard/")
        assert {r["system_name"] for r in json.loads(body)["rows"]} == {"copy", "cautious", "balanced", "eager"}
        assert (clone / "var" / "db.sqlite3").exists()  # the embedded default
        with pytest.raises(urllib.error.HTTPError) as missing:
            get(f"http://127.0.0.1:{port}/tasks/no-such-task/")
        assert (
            missing.value.code == 404 and b"URLconf" not in missing.value.read()
        )  # the site's page, not Django's debug one
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
