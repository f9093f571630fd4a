"""Scoring under a crowd: the compose-shaped stack on this machine, scoring
measured idle, with 200 participants' pages open, under a 50-connection storm straight
at gunicorn, and the fair queue's case.

    python bench/crowd.py [--viewers 200] [--window 60] [--generators 2] [--worker-nice 3]
                          [--skip-fairness] [--json]

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
2. crowd: ``--viewers`` logged-in participants (their own session each; the teams get
   as many members as that takes), each with the task page and their team's newest
   submission page open, as static/leaderboard/live.js drives them: the task page polls
   the phase's version (3 s after a change, backing off to 15 s while nothing changes)
   and on a change fetches the board, both files nginx serves while the phase is public
   (services/boards/mirror.py); it polls the team's own rows, a channel file nginx
   serves (services/boards/channels.py), the same way; the submission page polls its
   status channel and reloads once it is finished. The scoring rate, the pages' p95 over
   every request and the requests a second they sent. The pages speak HTTP/1.1 through
   a client of a few lines (``Page``), shared among ``--generators`` processes, so the
   generator is not what sets the rate. Then, the same crowd still polling, the hiding
   check: the phase revealed, then hidden for HIDDEN_FOR s with 12 probes beside the pages
   (anonymous and logged-in pollers of the version, the board and the API board, half of
   them sending back the ETag they were given, every 0.25 s); ``hidden_leaks`` counts the
   answers to requests sent 2 s or more after the hide that showed the hidden results
   (the pool's version, a system of the board, the API board) or confirmed a public ETag;
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

from busy_workers import celery_worker, free_port, start_redis, stop
from fresh_database import reset_database
from platform_load import load_python, start_proxy, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
FIRST, MOST = 3.0, 15.0  # static/leaderboard/live.js: after a change, and the longest backoff
HIDDEN_FOR = 15.0  # seconds the hiding check keeps the phase hidden (the bound is 2; every poll reaches Django then)
TEAMS, MEMBERS = 50, 4


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A process of the stack, leading its own session (its own scheduling group)."""
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True
    )


def seed(outputs: Path, viewers: int) -> dict:
    """The task, its 50 teams and enough members for ``viewers`` logged-in pages (at
    least 4 a team), each with a session; the sessions' cookies round the teams."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from leaderboard.models import Membership, Team
    from leaderboard.services.hosting.task_creation import create_task

    conll = settings.SHARED_DIR / "data" / "seeda" / "conll14" / "official-2014.combined.m2"
    task = create_task(
        "conll14", title="CoNLL-2014", m2=conll.read_text(encoding="utf-8"), metrics=["errant", "gotoscorer"]
    )
    teams = [Team.objects.create(task=task, name=f"team{k:02d}") for k in range(TEAMS)]
    cookies = []
    for j in range(max(MEMBERS, -(-viewers // TEAMS))):
        for k, team in enumerate(teams):
            user = User.objects.create(username=f"p{k:02d}-{j}")  # no password: hashing 1,000 would take minutes
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
    ("multiprocessing.spawn", "load"),  # the load generators' processes
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
        + ", ".join(
            f"{role} {(after.get(role, 0) - before.get(role, 0)) / seconds:.2f}"
            for role in dict.fromkeys(role for _key, role in ROLES)
        ),
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
    stack it measures, the better). ``get`` answers (status, body, ETag) or raises."""

    def __init__(self, host: str, port: int, cookie: str | None):
        self.host, self.port, self.cookie = host, port, cookie
        self.reader = self.writer = None

    async def get(self, path: str, etag: bytes | None = None) -> tuple[int, bytes, bytes]:
        cookie = f"Cookie: sessionid={self.cookie}\r\n" if self.cookie else ""
        if_none_match = f"If-None-Match: {etag.decode()}\r\n" if etag else ""
        request = f"GET {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{cookie}{if_none_match}\r\n".encode()
        for attempt in (1, 2):  # a connection the proxy closed (keepalive_requests) is opened again once
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(request)
                return await self.answer()
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def answer(self) -> tuple[int, bytes, bytes]:
        raw = await self.reader.readuntil(b"\r\n\r\n")
        head = raw.lower()
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
        at = head.find(b"\r\netag:")
        etag = raw[at + 7 : raw.index(b"\r\n", at + 2)].strip() if at >= 0 else b""
        return status, body, etag

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


PROBE_EVERY = 0.25  # seconds between two polls of a hiding probe (faster than a page: more answers to check)


def looks_public(kind: str, status: int, body: bytes) -> bool:
    """Whether an answer shows the phase's results: the pool's version (a viewer who may
    not see them gets ``own-...``), the board's systems, the API board itself."""
    if kind.endswith("version"):
        return status == 200 and body.strip().isdigit()
    if kind.endswith("rows"):
        return b"backlog-" in body
    return kind.endswith("api") and status == 200


class Crowd:
    """Some of the pages (one keep-alive connection each) in one asyncio loop, in a process
    of its own: every answer is kept as (sent at, kind, ms, status, shows the results,
    confirmed a public ETag). Probes (``probes``): anonymous and logged-in pollers of the
    version, the board and the API board, half of them sending back the ETag they were
    given, polling every PROBE_EVERY s for the hiding check; kinds ``probe-...``."""

    def __init__(self, spec: dict):
        self.spec = spec
        self.answers: list[tuple] = []
        self.public_etags: set[bytes] = set()

    def run(self, stop, probing) -> list[tuple]:
        self.stop, self.probing = stop, probing
        asyncio.run(self.main())
        return self.answers

    async def main(self) -> None:
        spec = self.spec
        host, port = spec["host"], spec["port"]
        pages = []
        for cookie, own_channel, submission, status_channel in spec["pages"]:
            pages.append(self.board(Page(host, port, cookie), Page(host, port, cookie), own_channel))
            if submission:
                pages.append(self.submission(Page(host, port, cookie), submission, status_channel))
        for k, (path, kind) in enumerate(spec["probes"]):
            cookie = spec["pages"][0][0] if k % 2 else None
            pages.append(self.probe(Page(host, port, cookie), path, kind, holds_etag=k % 4 >= 2))
        await asyncio.gather(*pages)

    def halted(self) -> bool:
        return self.stop.is_set()

    async def get(self, page: Page, url: str, kind: str, etag: bytes | None = None) -> tuple[int, bytes, bytes]:
        sent, started = time.time(), time.perf_counter()
        try:
            status, body, answer_etag = await page.get(url, etag)
        except Exception as error:
            self.answers.append((sent, kind, None, type(error).__name__, False, False, b""))
            return 0, b"", b""
        elapsed = (time.perf_counter() - started) * 1000
        public = looks_public(kind, status, body)
        if public and answer_etag:
            self.public_etags.add(answer_etag)
        confirmed = status == 304 and etag in self.public_etags
        self.answers.append((sent, kind, elapsed, status, public, confirmed, body[:60] if public or confirmed else b""))
        return status, body, answer_etag

    async def poll(self, page: Page, url: str, kind: str, on_change) -> None:
        """live.js's loop on one URL: again FIRST seconds after a change, backing off by half
        up to MOST while nothing changes; ``on_change(body)`` returning False stops it."""
        seen, delay = None, FIRST
        await asyncio.sleep(random.uniform(0, FIRST))  # pages opened at different moments
        while not self.halted():
            status, body, _etag = await self.get(page, url, kind)
            if status == 200 and body != seen:
                if seen is not None and await on_change(body) is False:
                    return
                seen, delay = body, FIRST
            else:
                delay = min(MOST, delay * 1.5)
            await asyncio.sleep(delay)

    async def board(self, page: Page, own_page: Page, own_channel: str) -> None:
        """The task page: the phase's version and, on a change, the board (both files nginx
        serves while the phase is public); the team's own rows, its channel file."""
        slug, key = self.spec["slug"], self.spec["key"]
        rows = f"/tasks/{slug}/rows/?phase={key}"

        async def refresh(_version):
            await self.get(page, rows, "rows")

        async def own_rows(_text):
            return True  # the page shows the new rows

        await asyncio.gather(
            self.poll(page, f"/tasks/{slug}/version/?phase={key}", "version", refresh),
            self.poll(own_page, own_channel, "own", own_rows),
        )

    async def submission(self, page: Page, submission_id: int, channel: str) -> None:
        """The submission page: its status channel; reloaded once when it is finished."""

        async def refresh(text):
            if json.loads(text).get("finished"):
                await self.get(page, f"/tasks/{self.spec['slug']}/submissions/{submission_id}/", "page")
                return False
            return True

        await self.poll(page, channel, "status", refresh)

    async def probe(self, page: Page, path: str, kind: str, holds_etag: bool) -> None:
        etag = None
        while not (self.probing.is_set() or self.halted()):  # not while the pages' figures are measured
            await asyncio.sleep(0.1)
        await asyncio.sleep(random.uniform(0, PROBE_EVERY))
        while not self.halted():
            status, _body, answer_etag = await self.get(page, path, f"probe-{kind}", etag if holds_etag else None)
            if status == 200:
                etag = answer_etag or etag
            await asyncio.sleep(PROBE_EVERY)


def drive(spec: dict, stop, probing, answers) -> None:
    """A load generator's process: its pages until ``stop`` is set (its probes from when
    ``probing`` is), then every answer."""
    answers.put(Crowd(spec).run(stop, probing))


class Generators:
    """The viewers' pages shared among ``count`` processes (the generator must not be what
    sets the rate: one Python process tops out near a few hundred requests a second here)."""

    def __init__(self, proxy: str, slug: str, phase, cookies: list, pending: dict, viewers: int, count: int):
        import multiprocessing

        from leaderboard.services.boards.channels import submission_channel, team_channel

        host, port = proxy.removeprefix("http://").split(":")
        key = phase.kind
        own = {team: team_channel(team, phase.pk).url for team in {team for team, _cookie in cookies}}
        status = {pk: submission_channel(pk, team).url for team, pk in pending.items()}
        pages = [
            (cookie, own[team], pending.get(team), status.get(pending.get(team))) for team, cookie in cookies[:viewers]
        ]
        probes = [
            (path, kind)
            for path, kind in (
                (f"/tasks/{slug}/version/?phase={key}", "version"),
                (f"/tasks/{slug}/rows/?phase={key}", "rows"),
                (f"/api/tasks/{slug}/leaderboard/", "api"),
            )
            for _ in range(4)  # anonymous, member; each with and without the ETag it was given
        ]
        context = multiprocessing.get_context("spawn")
        self.stop, self.probing, self.queue = context.Event(), context.Event(), context.Queue()
        self.processes = [
            context.Process(
                target=drive,
                args=(
                    {
                        "host": host,
                        "port": int(port),
                        "slug": slug,
                        "key": key,
                        "pages": pages[k::count],
                        "probes": probes if k == 0 else [],
                    },
                    self.stop,
                    self.probing,
                    self.queue,
                ),
                daemon=True,
            )
            for k in range(count)
        ]

    def start(self) -> None:
        for process in self.processes:
            process.start()

    def finish(self) -> list[tuple]:
        """Stop every page; all their answers."""
        self.stop.set()
        answers = []
        for _ in self.processes:
            answers.extend(self.queue.get(timeout=MOST + 60))
        for process in self.processes:
            process.join(timeout=10)
        return answers


def first_in_line() -> None:
    """Give the load generators a higher CPU weight than the stack's: the viewers' browsers
    are other machines, and a generator that lags measures itself, not the pages (run as
    root, as here: this session's autogroup, nice -5, which the generators inherit). Their
    CPU is printed with the stack's ("load"), and taken from the stack."""
    try:
        Path("/proc/self/autogroup").write_text("-5")
    except OSError as error:
        print(f"  the load generators keep their priority ({error})", file=sys.stderr)


def crowd_figures(answers: list[tuple], start: float, end: float) -> dict:
    """The pages' requests sent in [start, end): how many, p95 over all and per kind, errors."""
    window = [a for a in answers if start <= a[0] < end and not a[1].startswith("probe")]
    timed = [a for a in window if a[2] is not None]
    errors: dict[str, int] = {}
    for _sent, kind, ms, status, *_rest in window:
        if ms is None or status >= 400:
            what = f"{kind} {status}"
            errors[what] = errors.get(what, 0) + 1
    by_kind: dict[str, list[float]] = {}
    for a in timed:
        by_kind.setdefault(a[1], []).append(a[2])
    return {
        "requests": len(window),
        "p95": p95([a[2] for a in timed]),
        "kinds": ", ".join(f"{kind} {len(v)} p95 {p95(v)} ms" for kind, v in sorted(by_kind.items())),
        "errors": errors,
    }


def hiding_check(answers: list[tuple], hidden_at: float, shown_at: float, bound: float = 2.0) -> dict:
    """Answers to requests sent ``bound`` s or more after the hide and answered before it
    was revealed again (one answered later may be public again, rightly): how many, and how
    many showed the hidden results (or confirmed a public ETag), by kind."""
    late = [a for a in answers if a[2] is not None and hidden_at + bound <= a[0] and a[0] + a[2] / 1000 < shown_at]
    leaks: dict[str, int] = {}
    examples = []
    for sent, kind, ms, status, public, confirmed, body in late:
        if public or confirmed:
            leaks[kind] = leaks.get(kind, 0) + 1
            examples.append((round(sent - hidden_at, 2), kind, round(ms), status, body[:40]))
    before = [a for a in answers if a[0] < hidden_at and a[4]]
    return {
        "late": len(late),
        "leaks": sum(leaks.values()),
        "by_kind": leaks,
        "public_before": len(before),
        "examples": sorted(examples)[:5] + sorted(examples)[-5:],
    }


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
    parser.add_argument("--generators", type=int, default=2, help="load generator processes the pages share")
    parser.add_argument("--skip-fairness", action="store_true", help="stop after the storm")
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
    seeded = seed(outputs, args.viewers)
    phase, teams = seeded["phase"], seeded["teams"]
    print(
        f"seeded: {len(teams)} teams, {len(seeded['cookies'])} participants with a session, "
        f"{phase.dataset.n_sentences} sentences; {uptime()}",
        file=sys.stderr,
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
                celery_worker(
                    env,
                    *("--concurrency", "1", "--loglevel", "INFO", "--queues", queue, "-n", f"{name}@%h"),
                    log=tmp / f"{name}.log",
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

        crowd = Generators(
            base, "conll14", phase, seeded["cookies"], newest_pending(ids), args.viewers, args.generators
        )
        first_in_line()
        crowd.start()
        time.sleep(FIRST + 5)  # every page open and polling (the generators' interpreters started)
        (tmp / "access.log").write_text("")
        crowd_jobs, crowd_start = rate(args.window, tmp)
        crowd_end = crowd_start + args.window
        figures["crowd_jobs_per_min"] = round(crowd_jobs, 1)
        print(f"  in Django: {served_p95(tmp / 'access.log')}", file=sys.stderr)

        # the hiding check, the same crowd still polling: revealed, then hidden for 2 + 6 s
        from leaderboard.services.hosting.host import edit_phase

        crowd.probing.set()
        edit_phase(phase, {"results_visibility": "public"})
        time.sleep(3)
        edit_phase(phase, {"results_visibility": "organizers"})
        hidden_at = time.time()
        time.sleep(HIDDEN_FOR)
        shown_at = time.time()  # before the reveal: what it shows from its commit on is public again
        edit_phase(phase, {"results_visibility": "public"})
        answers = crowd.finish()
        seen = crowd_figures(answers, crowd_start, crowd_end)
        hiding = hiding_check(answers, hidden_at, shown_at)
        figures["crowd_p95_ms"] = seen["p95"]
        figures["page_requests_per_s"] = round(seen["requests"] / args.window)
        figures["hidden_leaks"] = hiding["leaks"]
        if not seen["requests"]:
            raise RuntimeError("the crowd made no request (its processes failed: see above)")
        print(f"crowd requests: {seen['kinds']}", file=sys.stderr)
        if seen["errors"]:
            print_log_tails(tmp)
        print(
            f"crowd: {figures['crowd_jobs_per_min']} jobs/min, {seen['requests']} page requests "
            f"({figures['page_requests_per_s']}/s from {args.generators} generator processes), "
            f"p95 {figures['crowd_p95_ms']} ms, errors {sum(seen['errors'].values())} {seen['errors']}; {uptime()}",
            file=sys.stderr,
        )
        print(
            f"hiding: {hiding['late']} answers to requests sent {2.0} s or more after the hide and answered "
            f"before the reveal ({shown_at - hidden_at:.1f} s after it), {hiding['leaks']} showed the hidden "
            f"results or confirmed a public ETag {hiding['by_kind']}; {hiding['public_before']} public answers "
            f"before the hide{'; the first and last: ' + str(hiding['examples']) if hiding['leaks'] else ''}",
            file=sys.stderr,
        )

        storm_result = {}
        storm = threading.Thread(
            target=lambda: storm_result.update(
                load_python(
                    f"http://127.0.0.1:{port}/api/tasks/conll14/leaderboard/", args.storm, int(args.window + 4), []
                )
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
        figures["light_max_wait_s"] = None if args.skip_fairness else fairness(phase, files)
        print(
            f"fairness: every light upload scored within {figures['light_max_wait_s']} s of being queued; {uptime()}",
            file=sys.stderr,
        )
        ordered = [
            "idle_jobs_per_min",
            "crowd_jobs_per_min",
            "crowd_p95_ms",
            "page_requests_per_s",
            "hidden_leaks",
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
