"""Past one machine, as docs/deployment.md says: the web runs from one clone
and a Celery worker from a second clone in another directory, each with its own working
directory, GEC_VAR_DIR, kernel cache, home and temporary folder, sharing nothing but
PostgreSQL and Redis. Through the web, an organizer hosts a task (its gold is prepared
by that worker), adds a phase, a team uploads (scored by that worker) and the organizer
rescores (run by that worker): nothing relies on a file only one machine has.

The clones are of the commit checked out (``git clone``), so uncommitted changes are not
in them. The gold is cut from the CoNLL-2014 data the repository ships."""

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
import uuid

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from rest_framework.authtoken.models import Token

import scoring
from leaderboard.demo import SYSTEMS, gold_blocks, simulate
from leaderboard.models import OrganizerJob, SharedTask, Submission
from tests.conftest import ROOT

from .served import PROXIED, Served, web_environment
from .workers import REAL_STACK, REDIS_URL, wait_for

pytestmark = [*REAL_STACK, *PROXIED, pytest.mark.django_db(transaction=True)]
GOLD = gold_blocks(0, 10)


def clone(directory):
    """A clone of the commit checked out here, with its own var/, kernels, home and tmp."""
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(directory)], check=True)
    subprocess.run(["git", "checkout", "--quiet", commit], cwd=directory, check=True)
    for name in ("var", "kernels", "home", "tmp"):
        (directory / name).mkdir()
    return directory


def machine_environment(directory, **extra) -> dict:
    environment = web_environment(
        CELERY_BROKER_URL=REDIS_URL,
        GEC_TASK_MODE="celery",
        GEC_WORKER_NICE="0",
        GEC_VAR_DIR=str(directory / "var"),
        GEC_KERNEL_DIR=str(directory / "kernels"),
        GEC_SHARED_DIR=str(directory / "nothing-beside"),
        HOME=str(directory / "home"),
        TMPDIR=str(directory / "tmp"),
        XDG_CACHE_HOME=str(directory / "home" / ".cache"),
        **extra,
    )
    environment.pop("PYTHONPATH", None)
    return environment


def imports_from(directory, environment) -> str:
    """Where ``leaderboard`` comes from for a process started in ``directory``."""
    return subprocess.run(
        [sys.executable, "-c", "import leaderboard; print(leaderboard.__file__)"],
        cwd=directory,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


class Visitor:
    """A browser of sorts: a session cookie, the CSRF token, multipart posts."""

    def __init__(self, url: str, session: str):
        self.url, self.cookies = url, {"sessionid": session}

    def request(self, path: str, data: bytes | None = None, headers: dict | None = None):
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        request = urllib.request.Request(self.url + path, data=data, headers={"Cookie": cookie, **(headers or {})})
        opener = urllib.request.build_opener(NoRedirect)
        try:
            response = opener.open(request, timeout=60)
        except urllib.error.HTTPError as error:
            response = error
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";")[0].partition("=")
            self.cookies[name] = value
        return response.status, response.read().decode(errors="replace"), response.headers

    def post_form(self, path: str, fields: list[tuple[str, str]], files: list[tuple[str, str, str]] = ()):
        page = self.request(path)[1]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body, content_type = multipart([("csrfmiddlewaretoken", token), *fields], files)
        return self.request(path, body, {"Content-Type": content_type, "Referer": self.url + path})


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def multipart(fields, files) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields
    ]
    parts += [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
        f'filename="{filename}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
        + text.encode()
        + b"\r\n"
        for name, filename, text in files
    ]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@pytest.fixture
def machines(tmp_path):
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    web_dir, worker_dir = clone(tmp_path / "web-machine"), clone(tmp_path / "worker-machine")
    web_env, worker_env = machine_environment(web_dir), machine_environment(worker_dir)
    assert imports_from(web_dir, web_env).startswith(str(web_dir)) and imports_from(worker_dir, worker_env).startswith(
        str(worker_dir)
    )
    worker_log = open(worker_dir / "worker.log", "wb")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "leaderboard",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "-n",
            "second-machine@%h",
            "--without-gossip",
            "--without-mingle",
            "-Q",
            "celery,scoring-large",
        ],
        cwd=worker_dir,
        env=worker_env,
        stdout=worker_log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    web = Served(web_dir, web_env, root=web_dir)
    yield {"url": web.url, "web": web_dir, "worker": worker_dir}
    web.stop()
    os.killpg(worker.pid, 9)
    worker.wait()


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def test_a_worker_on_another_machine_prepares_scores_and_rescores(machines):
    organizer = User.objects.create_user("hannah", password="pw")
    organizer.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    host = Visitor(machines["url"], session_of(organizer))

    status, _, headers = host.post_form(
        "/host/",
        [("title", "Two machines"), ("slug", "two"), ("description", ""), ("metrics", "errant"), ("tracks", "")],
        [("m2", "gold.m2", GOLD)],
    )
    assert status == 302, headers
    wait_for(
        lambda: SharedTask.objects.get(slug="two").status == "ready", what="the gold prepared by the second machine"
    )
    task = SharedTask.objects.get(slug="two")
    status, page, _ = host.post_form(
        "/tasks/two/phases/new/",
        [
            ("kind", "dev"),
            ("name", "Development"),
            ("reuse", str(task.datasets.get().pk)),
            ("time_zone", "UTC"),
            ("starts_at", "2026-01-01T00:00"),
            ("ends_at", "2099-01-01T00:00"),
            ("max_per_day", "5"),
            ("max_total", "20"),
            ("results_visibility", "public"),
            ("counting", "latest"),
        ],
    )
    assert status == 302, page[:2000]

    team = User.objects.create_user("careful", password="pw")
    output = simulate(scoring.read_m2(GOLD.encode(), name="gold"), SYSTEMS[0])
    body, content_type = multipart([("system_name", "Careful")], [("file", "careful.txt", output)])
    upload = urllib.request.Request(
        machines["url"] + "/api/tasks/two/submissions/",
        data=body,
        headers={"Authorization": f"Token {Token.objects.create(user=team).key}", "Content-Type": content_type},
    )
    submission_id = json.loads(urllib.request.urlopen(upload, timeout=60).read())["id"]
    wait_for(
        lambda: Submission.objects.get(pk=submission_id).status in ("scored", "failed"),
        what="the upload scored by the second machine",
    )
    submission = Submission.objects.get(pk=submission_id)
    assert submission.status == "scored", submission.error
    board = json.loads(
        urllib.request.urlopen(machines["url"] + "/api/tasks/two/leaderboard/?metric=errant.cs.f", timeout=30).read()
    )
    assert [row["system_name"] for row in board["rows"]] == ["Careful"]

    status, _, _ = host.post_form("/tasks/two/rescore/", [("confirmed", "yes")])
    assert status == 302
    wait_for(
        lambda: OrganizerJob.objects.filter(task=task, kind="rescore", status__in=["done", "failed"]).exists(),
        what="the rescore on the second machine",
    )
    rescore = OrganizerJob.objects.get(task=task, kind="rescore")
    assert rescore.status == "done", rescore.message

    worker_log = (machines["worker"] / "worker.log").read_text(errors="replace")
    web_log = (machines["web"] / "gunicorn.log").read_text(errors="replace")
    assert f"scored submission {submission_id}" in worker_log and "run_organizer_job" in worker_log
    assert "scored submission" not in web_log  # the web only queued
