"""Scoring under a crowd: the compose-shaped stack on this machine, scoring
measured idle, with 200 participants' pages open, under a 50-connection storm straight
at gunicorn, and the fair queue's case.

    python bench/crowd.py [--viewers 200] [--window 45] [--worker-nice 3] [--json]

The stack as docker/compose.yaml runs it, without a Docker engine: gunicorn -w 3 (sync)
behind nginx with the repository's config (scripts/proxy), Celery workers (``--workers``
on the default queue and the boards' tie groups, one ``worker-large`` on ``scoring-large``, prefork, one process each,
each leading its own session so ``GEC_WORKER_NICE`` is its scheduling group's weight, as
``cpu_shares`` is a container's), PostgreSQL at 127.0.0.1:5432 (database ``--database``,
dropped and re-created) and a private redis-server. Every process of the stack leads
its own session (its own autogroup), like a container its own cgroup.

Data: CoNLL-2014 test (1,312 sentences, ERRANT and GoToScorer) and SEEDA's full system
outputs as uploads, 50 teams of 4 participants. A backlog of uploads from every team
keeps both workers busy throughout (the fair queue sends one per team at a time).

1. idle: the scoring rate over ``--window`` seconds;
2. crowd: ``--viewers`` logged-in participants (their own session each), each with the
   task page and their team's newest submission page open, as static/leaderboard/live.js
   drives them: the task page polls the phase's version through nginx (3 s after a
   change, backing off to 15 s while nothing changes) and on a change fetches the board
   (the public's, which nginx keeps a second); it polls the team's own rows, a channel
   file nginx serves (services/boards/channels.py), the same way; the submission page
   polls its status channel and reloads once it is finished. The scoring rate and the
   pages' p95 over every request. The pages speak HTTP/1.1 through a client of a few
   lines (``Page``), so the generator takes as little as it can of the stack's cores;
3. storm: 50 closed-loop connections on the public board API straight at gunicorn;
4. fairness: one team queues 8 essays (SEEDA subset paragraphs of ~300 words) in a task
   with similarity-weighted CLEME2.0, then another 8 CoNLL-size uploads (of outputs the
   phase has seen, so their lines are parsed): the longest any light upload waited from
   queued to scored.

``--json`` prints one line with the figures. The load generators run on this machine too
(nice 0, their own session); the machine is shared: `uptime` is printed around the runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from busy_workers import free_port, start_redis, stop
from fresh_database import reset_database
from platform_load import load_python, start_proxy, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
FIRST, MOST = 3.0, 15.0  # static/leaderboard/live.js: after a change, and the longest backoff
TEAMS, MEMBERS = 50, 4


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A process of the stack, leading its own session (its own scheduling group)."""
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True
    )


def seed(outputs: Path) -> dict:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from leaderboard.models import Membership, Team
    from leaderboard.services.hosting.task_creation import create_task

    conll = settings.SHARED_DIR / "data" / "seeda" / "conll14" / "official-2014.combined.m2"
    task = create_task(
        "conll14", title="CoNLL-2014", m2=conll.read_text(encoding="utf-8"), metrics=["errant", "gotoscorer"]
    )
    teams, cookies = [], []
    for k in range(TEAMS):
        team = Team.objects.create(task=task, name=f"team{k:02d}")
        teams.append(team)
        for j in range(MEMBERS):
            user = User.objects.create(username=f"p{k:02d}-{j}")  # no password: hashing 200 would take minutes
            Membership.objects.create(user=user, team=team, task=task)
            client = Client()
            client.force_login(user)
            cookies.append((team.pk, client.cookies["sessionid"].value))
    return {"task": task, "phase": task.phases.get(), "teams": teams, "cookies": cookies}


def queue_uploads(phase, teams, files: list[Path], per_team: int, prefix: str) -> list[int]:
    """``per_team`` uploads from every team, round the teams, through the service an API upload calls."""
    from django.test.utils import override_settings

    from leaderboard.services.submissions.intake import accept_submission

    ids = []
    with override_settings(GEC_TASK_MODE="celery"):
        for round_ in range(per_team):
            for k, team in enumerate(teams):
                path = files[(round_ * len(teams) + k) % len(files)]
                ids.append(
                    accept_submission(
                        phase,
                        None,
                        team=team,
                        system_name=f"{prefix}-{path.stem}-{round_}-{k}",
                        filename=path.name,
                        content=path.read_bytes(),
                        enforce_limits=False,
                    ).pk
                )
    return ids


def scored_between(start: float, end: float) -> int:
    import datetime as dt

    from leaderboard.models import Submission

    to_time = lambda t: dt.datetime.fromtimestamp(t, dt.UTC)  # noqa: E731
    return Submission.objects.filter(status="scored", scored_at__gte=to_time(start), scored_at__lt=to_time(end)).count()


ROLES = (
    ("celery", "workers"),
    ("gunicorn", "web"),
    ("nginx", "nginx"),
    ("postgres", "postgres"),
    ("redis-server", "redis"),
    ("crowd.py", "load"),
)


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by each part of the stack (and this load generator), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        role = next((name for key, name in ROLES if key in command), None)
        if role:
            used[role] = used.get(role, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return used


def rate(seconds: float, logs: Path | None = None) -> tuple[float, float]:
    """Run the window; (jobs per minute, its start). Prints the cores each part used and,
    from the workers' logs in ``logs``, the jobs they finished and the seconds they took."""
    start, before = time.time(), cpu_seconds()
    time.sleep(seconds)
    after = cpu_seconds()
    print(
        "  cores used: "
        + ", ".join(f"{role} {(after.get(role, 0) - before.get(role, 0)) / seconds:.2f}" for _key, role in ROLES),
        file=sys.stderr,
    )
    if logs is not None:
        print(f"  worker jobs: {jobs_between(logs, start, time.time())}", file=sys.stderr)
    return scored_between(start, time.time()) * 60 / seconds, start


FINISHED = re.compile(
    r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+: INFO/[^\]]*\] Task ([\w.]+)\[[^\]]+\] succeeded in ([\d.]+)s"
)


def jobs_between(logs: Path, start: float, end: float) -> str:
    """Each kind of job the workers finished between ``start`` and ``end``: how many, and
    their seconds in all (Celery's INFO lines, in local time)."""
    import datetime as dt

    done: dict[str, list[float]] = {}
    for log in logs.glob("worker*.log"):
        for line in log.read_text(errors="replace").splitlines():
            found = FINISHED.match(line)
            if found and start <= dt.datetime.strptime(found[1], "%Y-%m-%d %H:%M:%S").timestamp() < end:
                done.setdefault(found[2].rsplit(".", 1)[-1], []).append(float(found[3]))
    return ", ".join(f"{name} {len(times)} ({sum(times):.1f} s)" for name, times in sorted(done.items())) or "none"


# -- the crowd: pages as live.js drives them -----------------------------------------------


class Page:
    """One open page's keep-alive HTTP/1.1 connection to the proxy, as lean as a client can
    be (the viewers' browsers are other machines: the less this process takes from the
    stack it measures, the better). ``get`` answers (status, body) or None on an error."""

    def __init__(self, host: str, port: int, cookie: str):
        self.host, self.port, self.cookie = host, port, cookie
        self.reader = self.writer = None

    async def get(self, path: str) -> tuple[int, bytes]:
        for attempt in (1, 2):  # a connection the proxy closed (keepalive_requests) is opened again once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(
                    (
                        f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                        f"Cookie: sessionid={self.cookie}\r\n\r\n"
                    ).encode()
                )
                return await self.answer()
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def answer(self) -> tuple[int, bytes]:
        head = (await self.reader.readuntil(b"\r\n\r\n")).lower()
        status = int(head[9:12])
        if b"content-length:" in head:
            body = await self.reader.readexactly(int(head.split(b"content-length:")[1].split(b"\r\n")[0]))
        elif b"transfer-encoding: chunked" in head:
            parts = []
            while size := int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append((await self.reader.readexactly(size + 2))[:-2])
            await self.reader.readuntil(b"\r\n")
            body = b"".join(parts)
        else:
            body = b""
        if b"connection: close" in head:
            self.close()
        return status, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Crowd(threading.Thread):
    """``viewers`` participants' pages in one asyncio loop (one keep-alive connection each)."""

    def __init__(self, proxy: str, slug: str, phase, cookies: list, pending: dict, viewers: int):
        from leaderboard.services.boards.channels import submission_channel, team_channel

        super().__init__(daemon=True)
        self.proxy, self.slug, self.phase = proxy, slug, phase
        self.cookies, self.pending, self.viewers = cookies[:viewers], pending, viewers
        # the channels' names, as the pages were given them (asked here: no queries in the loop)
        self.own_channels = {team: team_channel(team, phase.pk).url for team, _cookie in self.cookies}
        self.status_channels = {pk: submission_channel(pk, team).url for team, pk in pending.items()}
        self.latencies: list[float] = []
        self.by_kind: dict[str, list[float]] = {}  # version, rows, own, status, page: where the time goes
        self.errors = 0
        self.kinds: dict[str, int] = {}  # what the errors were
        self.halt = threading.Event()

    def run(self) -> None:
        asyncio.run(self.main())

    @staticmethod
    def first_in_line() -> None:
        """Give this process (the load generator) a higher CPU weight than the stack's: the
        viewers' browsers are other machines, and a generator that lags measures itself,
        not the pages (run as root, as here: its own session's autogroup, nice -5). Its CPU
        is printed with the stack's ("load"), and taken from the stack."""
        try:
            Path("/proc/self/autogroup").write_text("-5")
        except OSError as error:
            print(f"  the load generator keeps its priority ({error})", file=sys.stderr)

    async def main(self) -> None:
        host, port = self.proxy.removeprefix("http://").split(":")
        pages = []
        for team, cookie in self.cookies:
            pages.append(self.board(Page(host, int(port), cookie), self.own_channels[team]))
            submission = self.pending.get(team)
            if submission:
                pages.append(
                    self.submission(Page(host, int(port), cookie), submission, self.status_channels[submission])
                )
        await asyncio.gather(*pages)

    async def get(self, page: Page, url: str) -> tuple[int, bytes] | None:
        started = time.perf_counter()
        try:
            status, body = await page.get(url)
        except Exception as error:
            self.errors += 1
            self.kinds[type(error).__name__] = self.kinds.get(type(error).__name__, 0) + 1
            return None
        elapsed = (time.perf_counter() - started) * 1000
        self.latencies.append(elapsed)
        self.by_kind.setdefault(kind_of(url), []).append(elapsed)
        if status >= 400:
            self.errors += 1
            what = f"{kind_of(url)} {status}"
            self.kinds[what] = self.kinds.get(what, 0) + 1
        return status, body

    async def poll(self, page: Page, url: str, on_change) -> None:
        """live.js's loop on one URL: again FIRST seconds after a change, backing off by half
        up to MOST while nothing changes; ``on_change(body)`` returning False stops it."""
        seen, delay = None, FIRST
        await asyncio.sleep(random.uniform(0, FIRST))  # pages opened at different moments
        while not self.halt.is_set():
            answer = await self.get(page, url)
            if answer is not None and answer[0] == 200 and answer[1] != seen:
                if seen is not None and await on_change(answer[1]) is False:
                    return
                seen, delay = answer[1], FIRST
            else:
                delay = min(MOST, delay * 1.5)
            await asyncio.sleep(delay)

    async def board(self, page: Page, own_channel: str) -> None:
        """The task page: the phase's version (nginx's copy) and, on a change, the board
        (the public's, nginx's one-second copy); the team's own rows, its channel file."""
        rows = f"/tasks/{self.slug}/rows/?phase={self.phase.kind}"

        async def refresh(_version):
            await self.get(page, rows)

        async def own_rows(_text):
            return True  # the page shows the new rows

        await asyncio.gather(
            self.poll(page, f"/tasks/{self.slug}/version/?phase={self.phase.kind}", refresh),
            self.poll(Page(page.host, page.port, page.cookie), own_channel, own_rows),
        )

    async def submission(self, page: Page, submission_id: int, channel: str) -> None:
        """The submission page: its status channel; reloaded once when it is finished."""

        async def refresh(text):
            if json.loads(text).get("finished"):
                await self.get(page, f"/tasks/{self.slug}/submissions/{submission_id}/")
                return False
            return True

        await self.poll(page, channel, refresh)

    def p95(self) -> float:
        return p95(self.latencies)

    def kinds_p95(self) -> str:
        return ", ".join(f"{kind} {len(values)} p95 {p95(values)} ms" for kind, values in sorted(self.by_kind.items()))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[int(len(ordered) * 0.95)], 1) if ordered else 0.0


def served_p95(access_log: Path) -> str:
    """gunicorn's own time per kind of request (its access log, microseconds), then cleared."""
    times: dict[str, list[float]] = {}
    for line in access_log.read_text().splitlines():
        path, _, micros = line.rpartition(" ")
        if micros.isdigit():
            times.setdefault(kind_of(path + "/"), []).append(int(micros) / 1000)
    access_log.write_text("")
    return ", ".join(f"{kind} {len(values)} p95 {p95(values)} ms" for kind, values in sorted(times.items()))


def kind_of(url: str) -> str:
    """Which of a page's requests ``url`` is (a team channel: its own rows; a submission's: its status)."""
    for kind, marker in (
        ("version", "/version/"),
        ("rows", "/rows/"),
        ("own", "/live/team/"),
        ("status", "/live/submission/"),
    ):
        if marker in url:
            return kind
    return "page"


def newest_pending(ids: list[int]) -> dict[int, int]:
    """Each team's next waiting upload: the submission page its members have open."""
    from leaderboard.models import Submission

    pending = {}
    for pk, team in (
        Submission.objects.filter(pk__in=ids, status__in=["queued", "running"])
        .order_by("created_at")
        .values_list("pk", "team_id")
    ):
        pending.setdefault(team, pk)
    return pending


# -- the fairness case ---------------------------------------------------------------------


def essays(lines_per_paragraph: int = 12) -> dict[str, str]:
    """SEEDA subset texts joined into paragraphs of ~300 words (one per line)."""
    from django.conf import settings

    seeda = settings.SHARED_DIR / "data" / "seeda"
    files = {
        "source": seeda / "seeda" / "outputs" / "subset" / "INPUT.txt",
        **{p.stem: p for p in (seeda / "derived" / "subset").glob("REF*.txt")},
        **{p.stem: p for p in (seeda / "seeda" / "outputs" / "subset").glob("*.txt") if p.stem != "INPUT"},
    }
    joined = {}
    for name, path in files.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        joined[name] = "".join(
            " ".join(lines[i : i + lines_per_paragraph]) + "\n"
            for i in range(0, len(lines) - lines_per_paragraph + 1, lines_per_paragraph)
        )
    return joined


def fairness(conll_phase, files: list[Path], count: int = 8) -> float:
    """One team's ``count`` similarity essays, then another's ``count`` CoNLL uploads: the
    longest a light one waited from queued to scored (seconds)."""
    from django.test.utils import override_settings

    from leaderboard.models import Submission, Team
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.cost import submission_cost
    from leaderboard.services.submissions.intake import accept_submission

    texts = essays()
    refs = sorted(name for name in texts if name.startswith("REF"))
    task = create_task(
        "essays", title="Essays", source=texts["source"], references=[(r, texts[r]) for r in refs], metrics=["cleme2"]
    )
    task.sim = True
    task.save()
    essay_phase = task.phases.get()
    writers = Team.objects.create(task=task, name="essayists")
    quick = Team.objects.create(task=conll_phase.task, name="quick")
    systems = [name for name in texts if name not in ("source", *refs)]
    with override_settings(GEC_TASK_MODE="celery"):
        heavy = [
            accept_submission(
                essay_phase,
                None,
                team=writers,
                system_name=f"essay-{k}",
                filename="e.txt",
                content=texts[systems[k % len(systems)]].encode(),
                enforce_limits=False,
            ).pk
            for k in range(count)
        ]
        # CoNLL-size outputs whose lines the phase has parsed before (most uploads of a busy
        # phase share most lines): the "1-second uploads"
        light = [
            accept_submission(
                conll_phase,
                None,
                team=quick,
                system_name=f"light-{k}",
                filename=files[k % 2].name,
                content=files[k % 2].read_bytes(),
                enforce_limits=False,
            ).pk
            for k in range(count)
        ]
    print(
        f"fairness: essays routed to {submission_cost(heavy[0]).queue or 'the default queue'} "
        f"(estimate {submission_cost(heavy[0]).estimate} s), CoNLL uploads to "
        f"{submission_cost(light[0]).queue or 'the default queue'} "
        f"(estimate {submission_cost(light[0]).estimate} s)",
        file=sys.stderr,
    )
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        rows = list(Submission.objects.filter(pk__in=light).values_list("status", "created_at", "scored_at"))
        if all(status in ("scored", "failed") for status, _c, _s in rows):
            return round(max((scored - created).total_seconds() for _st, created, scored in rows if scored), 1)
        time.sleep(1)
    raise RuntimeError("the light uploads were not scored in 15 minutes")


def print_log_tails(tmp: Path) -> None:
    """The last lines of the proxy's and gunicorn's logs, to say why requests failed."""
    for log in (tmp / "proxy" / "error.log", tmp / "gunicorn.log"):
        if log.exists():
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
            print(f"  {log.name} (the last lines):\n{tail}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--window", type=float, default=60, help="seconds each scoring rate is measured over")
    parser.add_argument(
        "--workers", type=int, default=2, help="workers on the default queue (one more serves the large queue)"
    )
    parser.add_argument(
        "--backlog", type=int, default=24, help="uploads each team queues before the windows (enough for all three)"
    )
    parser.add_argument("--storm", type=int, default=50, help="connections of the storm straight at gunicorn")
    parser.add_argument(
        "--worker-nice", type=int, default=None, help="GEC_WORKER_NICE of the workers (default: the settings')"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (1: sync workers, as docker/compose.yaml)"
    )
    parser.add_argument("--database", default="gec_crowd")
    parser.add_argument("--json", action="store_true", help="print one line of figures")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the stack on the way out

    reset_database(args.database)
    tmp = Path(tempfile.mkdtemp(prefix="gec-crowd-"))
    redis_server, broker = start_redis(tmp)
    env = {
        **os.environ,
        "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{args.database}",
        "CELERY_BROKER_URL": broker,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
        "DEBUG": "0",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECRET_KEY": "bench-crowd",
        "GEC_NUM_PROXIES": "1",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "GEC_TASK_MODE": "celery",
        "GEC_TIE_GROUPS_QUEUE": "boards",  # as docker/compose.yaml: the default workers take it beside "celery"
        "GEC_LIVE_DIR": str(tmp / "live"),
    }  # the teams' channels: written by web and workers, served by nginx (scripts/proxy reads it)
    if args.worker_nice is not None:
        env["GEC_WORKER_NICE"] = str(args.worker_nice)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    outputs = settings.SHARED_DIR / "data" / "seeda" / "seeda" / "outputs" / "all"
    files = sorted(p for p in outputs.glob("*.txt") if p.stem != "INPUT")
    seeded = seed(outputs)
    phase, teams = seeded["phase"], seeded["teams"]
    print(
        f"seeded: {len(teams)} teams of {MEMBERS}, {phase.dataset.n_sentences} sentences; {uptime()}", file=sys.stderr
    )

    port = free_port()
    processes = []
    try:
        processes.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "leaderboard.wsgi",
                    "-b",
                    f"127.0.0.1:{port}",
                    "-w",
                    "3",
                    *(["-k", "gthread", "--threads", str(args.threads)] if args.threads > 1 else ["-k", "sync"]),
                    "--timeout",
                    "120",
                    "--log-level",
                    "warning",
                    "--access-logfile",
                    str(tmp / "access.log"),
                    "--access-logformat",
                    "%(U)s %(D)s",
                ],
                env,
                tmp / "gunicorn.log",
            )
        )
        proxy = start_proxy(port, tmp)
        processes.append(proxy)
        workers = [(f"worker{k}", "celery,boards") for k in range(args.workers)] + [
            ("worker-large", settings.GEC_LARGE_QUEUE)
        ]
        for name, queue in workers:
            processes.append(
                start(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "leaderboard",
                        "worker",
                        "--concurrency",
                        "1",
                        "--loglevel",
                        "INFO",
                        "--queues",
                        queue,
                        "-n",
                        f"{name}@%h",
                    ],
                    env,
                    tmp / f"{name}.log",
                )
            )
        base = f"http://127.0.0.1:{proxy.port}"
        wait_until_up(f"{base}/api/tasks/conll14/leaderboard/")

        # a backlog from every team for the three windows; the two workers warm up first
        # (two outputs, parsed once while warming up, as a busy phase's uploads share most lines)
        ids = queue_uploads(phase, teams, files[:2], per_team=args.backlog, prefix="backlog")
        while scored_between(0, time.time() + 1) < args.workers + 2:
            time.sleep(1)
        figures = {"viewers": args.viewers}
        figures["idle_jobs_per_min"] = round(rate(args.window, tmp)[0], 1)
        print(f"idle: {figures['idle_jobs_per_min']} jobs/min; {uptime()}", file=sys.stderr)

        crowd = Crowd(base, "conll14", phase, seeded["cookies"], newest_pending(ids), args.viewers)
        Crowd.first_in_line()
        crowd.start()
        time.sleep(FIRST + 2)  # every page open and polling
        crowd.latencies.clear()
        crowd.by_kind.clear()
        (tmp / "access.log").write_text("")
        figures["crowd_jobs_per_min"] = round(rate(args.window, tmp)[0], 1)
        figures["crowd_p95_ms"] = crowd.p95()
        print(f"crowd requests: {crowd.kinds_p95()}", file=sys.stderr)
        print(f"  in Django: {served_p95(tmp / 'access.log')}", file=sys.stderr)
        crowd.halt.set()
        requests = len(crowd.latencies)
        if not requests:
            raise RuntimeError("the crowd made no request (its thread failed: see above)")
        if crowd.errors:
            print_log_tails(tmp)
        crowd.join(timeout=MOST + 30)
        print(
            f"crowd: {figures['crowd_jobs_per_min']} jobs/min, {requests} page requests "
            f"({requests / args.window:.0f}/s), "
            f"p95 {figures['crowd_p95_ms']} ms, errors {crowd.errors} {crowd.kinds}; {uptime()}",
            file=sys.stderr,
        )

        storm_result = {}
        storm = threading.Thread(
            target=lambda: storm_result.update(
                load_python(f"http://127.0.0.1:{port}/api/tasks/conll14/leaderboard/", args.storm, args.window + 4, [])
            )
        )
        storm.start()
        time.sleep(2)
        figures["storm_jobs_per_min"] = round(rate(args.window, tmp)[0], 1)
        storm.join()
        print(
            f"storm: {figures['storm_jobs_per_min']} jobs/min; the board answered {storm_result.get('rps')} req/s, "
            f"p95 {storm_result.get('p95_ms')} ms; {uptime()}",
            file=sys.stderr,
        )

        # the backlog out of the way: the fairness case starts on empty queues
        import redis

        from leaderboard.models import Submission

        redis.Redis.from_url(broker).flushdb()
        Submission.objects.filter(pk__in=ids, status="queued").update(status="failed", error="bench: backlog dropped")
        while Submission.objects.filter(pk__in=ids, status="running").exists():
            time.sleep(0.5)
        figures["light_max_wait_s"] = fairness(phase, files)
        print(
            f"fairness: every light upload scored within {figures['light_max_wait_s']} s of being queued; {uptime()}",
            file=sys.stderr,
        )
        ordered = [
            "idle_jobs_per_min",
            "crowd_jobs_per_min",
            "crowd_p95_ms",
            "storm_jobs_per_min",
            "light_max_wait_s",
            "viewers",
        ]
        print(
            json.dumps({k: figures[k] for k in ordered})
            if args.json
            else "\n".join(f"{k}: {figures[k]}" for k in ordered)
        )
    finally:
        stop_stack(processes, redis_server, tmp)


def stop_stack(processes: list[subprocess.Popen], redis_server: subprocess.Popen, tmp: Path) -> None:
    """Each process by its group (gunicorn's and Celery's children too), then Redis; the scratch folder goes."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                stop(process)
    stop(redis_server)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
