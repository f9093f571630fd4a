"""``scripts/start`` on a busy port says so at once, before migrating or loading anything."""

import os
import socket
import subprocess
import sys
import time

from tests.conftest import ROOT


def test_a_busy_port_is_reported_before_migrating(tmp_path):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_", "REDIS_URL", "DJANGO_"))
        }
        env.update(GEC_VENV=sys.prefix, DATABASE_URL=f"sqlite:///{tmp_path / 'never.sqlite3'}")
        started = time.monotonic()
        done = subprocess.run(
            ["bash", "scripts/start", str(port)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 1
    assert f"start: port {port} on 127.0.0.1 is busy" in done.stderr and "bash scripts/start 8080" in done.stderr
    assert not (tmp_path / "never.sqlite3").exists()  # nothing was migrated
    assert "demo" not in done.stdout
    assert time.monotonic() - started < 60
