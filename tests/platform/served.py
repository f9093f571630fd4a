"""The web as production serves it, for the tests: gunicorn on the test database with
nginx in front (scripts/proxy: the compose file's config, unprivileged on a free port)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import ROOT
from tests.support import needs

NGINX = Path(os.environ.get("GEC_NGINX", "/usr/sbin/nginx"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def web_environment(**extra) -> dict:
    """Production settings (DEBUG=0) on the test database, plain HTTP as behind a proxy
    that ends TLS; the test's SECRET_KEY, so sessions made in the test are valid there."""
    database = connection.settings_dict
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
        "DATABASE_URL": f"postgresql://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "GEC_NUM_PROXIES": "1",
        "GEC_TASK_MODE": "sync",
        **extra,
    }


class Served:
    """``gunicorn leaderboard.wsgi`` started in ``root`` with nginx in front; ``url`` is the proxy's."""

    def __init__(self, tmp: Path, env: dict, root: Path = ROOT):
        self.tmp, self.processes = tmp, []
        web_port, proxy_port = free_port(), free_port()
        self.web_url, self.url = f"http://127.0.0.1:{web_port}", f"http://127.0.0.1:{proxy_port}"
        self.start(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "leaderboard.wsgi",
                "-b",
                f"127.0.0.1:{web_port}",
                "-w",
                "2",
                "-k",
                "sync",
            ],
            root,
            env,
        )
        self.start(
            "nginx",
            [
                "bash",
                str(ROOT / "scripts" / "proxy"),
                "run",
                f"127.0.0.1:{web_port}",
                str(proxy_port),
                str(tmp / "proxy"),
            ],
            root,
            env,
        )
        self.wait_until_up()

    def start(self, name: str, command: list[str], cwd: Path, env: dict) -> None:
        log = open(self.tmp / f"{name}.log", "wb")
        self.processes.append(
            subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        )

    def wait_until_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/tasks/", timeout=2).read()
                return
            except (OSError, urllib.error.HTTPError):
                time.sleep(0.2)
        logs = {p.name: p.read_text(errors="replace")[-2000:] for p in self.tmp.glob("*.log")}
        raise AssertionError(f"gunicorn behind nginx did not answer: {logs}")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)


def get(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """(status, headers, body) of a GET, errors included."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


PROXIED = [
    pytest.mark.integration,
    pytest.mark.slow,
    needs.postgresql(connection.vendor),  # gunicorn shares the test database
    needs.needs(
        NGINX.exists() and shutil.which("bash") is not None, f"nginx at {NGINX} (scripts/proxy installs Debian's)"
    ),
]
