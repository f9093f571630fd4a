"""Platform load benchmark: leaderboard API latency under 50 concurrent clients, idle and
while two workers score, and the time from upload to the leaderboard showing the new system.

    python bench/platform_load.py [--submissions 500] [--clients 50] [--seconds 20]
                                  [--busy-jobs 60] [--worker-nice N] [--rounds 1] [--direct]

Needs PostgreSQL at 127.0.0.1:5432 (database ``--database``, default ``gec_bench``,
dropped and re-created) and ``redis-server`` on the PATH (a private one is started on a
free port). Data: CoNLL-2014 test (1312 sentences, ``official-2014.combined.m2``, two
annotators) and SEEDA's full system outputs. Scores three systems for real, copies their
stored results into --submissions submissions of 50 teams, serves the API with gunicorn
(2 sync workers, DEBUG=0) behind nginx as docker/compose.yaml runs it (scripts/proxy:
the same config, unprivileged on a free port; ``--direct`` asks gunicorn itself) and
drives the board with ``wrk`` (keep-alive, C, outside Python's
GIL; a Lua ``done()`` hook prints p50/p95/p99). Without ``wrk`` on the PATH (the bench
installs nothing) it falls back to Python clients spread over several processes; it
prints which generator it used.

Each round measures the board idle, then busy: two Celery workers as docker/compose.yaml
runs them (bench/busy_workers.py) score --busy-jobs real SEEDA system outputs uploaded
by the seeded teams (each lands on the board: the pool changes under the clients),
warmed up first, and the bench prints whether the queue held a next job for each worker
at every sample (so none was ever idle) and the CPU time the workers got. Each run
prints the load average around it and the CPU time other work on the machine took
meanwhile (bench/machine.py): other work inflates latency. Last, one worker times an
upload of a CoNLL-14-size file through the API until the leaderboard lists it,
against the scoring library's own time for the same file.

``--reuse`` keeps an already seeded database (for comparing server settings; implies
--no-upload); ``--no-upload`` skips the upload timing; ``--busy-jobs 0`` the busy run.
The server gets this process's environment.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from busy_workers import (
    BusyCheck,
    ScoringWorkers,
    celery_worker,
    free_port,
    queue_jobs,
    start_redis,
    stop,
    wait_until_warm,
)
from fresh_database import reset_database
from machine import OthersCpu, cores

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("T5", "BART", "GECToR-BERT")  # scored for real; the other submissions copy their results
# Measured best on 2 cores (50 wrk connections, 10 s each): sync workers keep the tail
# tight (p95 ~1.2x p50), gthread's threads share a GIL and stretch it (p95 ~2x p50);
# 2 sync workers did as well as 3 and better than 4. Sync workers are safe behind the
# buffering proxy (a slow upload would otherwise hold a whole worker).
GUNICORN = {"workers": 2, "class": "sync", "threads": 1}


# wrk's done() hook: one JSON line with the figures (latencies are in microseconds)
WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "errors": %d, "non_2xx_or_3xx": %d, '
    .. '"p50_us": %d, "p95_us": %d, "p99_us": %d, "mean_us": %.1f, "max_us": %d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.mean, latency.max))
end
"""


def load_wrk(url: str, clients: int, seconds: float, headers: list[str], threads: int = 2) -> dict:
    """``wrk -c clients``: closed-loop keep-alive connections driven from C."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    try:
        out = subprocess.run(
            [
                "wrk",
                "-t",
                str(min(threads, clients)),
                "-c",
                str(clients),
                "-d",
                f"{seconds}s",
                "--timeout",
                "10s",
                "-s",
                script.name,
                *(x for header in headers for x in ("-H", header)),
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.unlink(script.name)
    raw = json.loads(next(line for line in out.splitlines() if line.startswith("WRK_JSON "))[len("WRK_JSON ") :])
    elapsed = raw["duration_us"] / 1e6
    return {
        "generator": f"wrk ({min(threads, clients)} threads, {clients} connections)",
        "requests": raw["requests"],
        "errors": raw["errors"] + raw["non_2xx_or_3xx"],
        "seconds": round(elapsed, 1),
        "rps": round(raw["requests"] / elapsed, 1),
        **{k.replace("_us", "_ms"): round(raw[k] / 1000, 2) for k in ("p50_us", "p95_us", "p99_us", "mean_us")},
    }


def client_latencies(url: str, clients: int, seconds: float, headers: list[str]) -> dict:
    """Closed-loop clients on keep-alive connections (one process); latencies in ms."""
    import http.client

    parsed = urlparse(url)
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    stop = time.monotonic() + seconds

    def client(k: int) -> None:
        connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
        path = parsed.path + ("?" + parsed.query if parsed.query else "")
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                connection.request("GET", path, headers=dict(h.split(": ", 1) for h in headers))
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors[k] += 1
            except OSError:
                errors[k] += 1
                connection.close()
                connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
                continue
            latencies[k].append((time.perf_counter() - started) * 1000)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"latencies": [x for per in latencies for x in per], "errors": sum(errors)}


def load_python(url: str, clients: int, seconds: float, headers: list[str], processes: int = 4) -> dict:
    """Fallback without wrk: the clients split over ``processes`` processes (GIL per process)."""
    processes = max(1, min(processes, clients))
    shares = [clients // processes + (k < clients % processes) for k in range(processes)]
    started = time.monotonic()
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--client",
                url,
                "--clients",
                str(n),
                "--seconds",
                str(seconds),
                *(["--gzip"] if headers else []),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in shares
    ]
    parts = [json.loads(run.communicate()[0]) for run in runs]
    elapsed = time.monotonic() - started
    flat = sorted(x for part in parts for x in part["latencies"])

    def percentile(q: float) -> float | None:
        return round(flat[min(len(flat) - 1, int(len(flat) * q))], 2) if flat else None

    return {
        "generator": f"python clients ({processes} processes, {clients} keep-alive connections; wrk not found)",
        "requests": len(flat),
        "errors": sum(p["errors"] for p in parts),
        "seconds": round(elapsed, 1),
        "rps": round(len(flat) / elapsed, 1),
        "p50_ms": percentile(0.50),
        "p95_ms": percentile(0.95),
        "p99_ms": percentile(0.99),
        "mean_ms": round(statistics.fmean(flat), 2) if flat else None,
    }


def load(url: str, clients: int, seconds: float, gzip: bool = False, others: OthersCpu | None = None) -> dict:
    """One run, with the 1-minute load average before and after it and, given ``others``,
    the CPU time other work on the machine took meanwhile."""
    headers = ["Accept-Encoding: gzip"] if gzip else []
    before = os.getloadavg()[0]
    with others or contextlib.nullcontext():
        figures = (
            load_wrk(url, clients, seconds, headers)
            if shutil.which("wrk")
            else load_python(url, clients, seconds, headers)
        )
    return {
        **figures,
        "load_before": before,
        "load_after": os.getloadavg()[0],
        "others_cpu": others.seconds if others else None,
    }


def gzip_headers(gzip: bool) -> list[str]:
    return ["Accept-Encoding: gzip"] if gzip else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--submissions", type=int, default=500)
    parser.add_argument("--teams", type=int, default=50)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=20)  # wrk takes whole seconds
    parser.add_argument("--rounds", type=int, default=1, help="idle and busy runs, alternated")
    parser.add_argument("--metrics", default="errant,gotoscorer")
    parser.add_argument("--gunicorn-workers", type=int, default=GUNICORN["workers"])
    parser.add_argument("--gunicorn-class", choices=["sync", "gthread"], default=GUNICORN["class"])
    parser.add_argument("--gunicorn-threads", type=int, default=GUNICORN["threads"], help="gthread only")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers scoring in the busy run")
    parser.add_argument(
        "--busy-jobs", type=int, default=60, help="uploads queued for them per busy run (0: no busy run)"
    )
    parser.add_argument("--worker-nice", type=int, help="their GEC_WORKER_NICE (default: the settings', 3)")
    parser.add_argument("--gzip", action="store_true", help="the clients send Accept-Encoding: gzip, as browsers do")
    parser.add_argument("--direct", action="store_true", help="ask gunicorn itself, without the proxy in front")
    parser.add_argument("--database", default="gec_bench")
    parser.add_argument("--reuse", action="store_true", help="keep an already seeded database (implies --no-upload)")
    parser.add_argument("--no-upload", action="store_true", help="skip the upload-to-visible timing")
    parser.add_argument("--client", help=argparse.SUPPRESS)  # internal: run only the load clients on this URL
    args = parser.parse_args()
    if args.client:
        print(json.dumps(client_latencies(args.client, args.clients, args.seconds, gzip_headers(args.gzip))))
        return

    reuse = args.reuse and seeded(args.database)
    if not reuse:
        reset_database(args.database)
    tmp = Path(tempfile.mkdtemp(prefix="gec-load-"))
    redis_server, broker = start_redis(tmp)
    database_url = f"postgresql://postgres@127.0.0.1:5432/{args.database}"
    # production settings (DEBUG=0); plain HTTP on 127.0.0.1 as behind a TLS-ending proxy.
    # This process seeds inline ("sync"); web and workers queue and score on the broker.
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
        "DEBUG": "0",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "SECRET_KEY": "bench",
        "GEC_TASK_MODE": "sync",
    }
    if args.worker_nice is not None:
        env["GEC_WORKER_NICE"] = str(args.worker_nice)
    served = {**env, "GEC_TASK_MODE": "celery"}
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    outputs = settings.SHARED_DIR / "data" / "seeda" / "seeda" / "outputs" / "all"
    target = outputs / "UEDIN-MS.txt"
    if reuse:
        from leaderboard.models import Submission

        print(f"reusing {args.database}: {Submission.objects.count()} submissions")
        library_seconds = None
    else:
        library_seconds = seed(args, outputs, target)

    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "leaderboard.wsgi",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        str(args.gunicorn_workers),
        "-k",
        args.gunicorn_class,
    ]
    if args.gunicorn_class == "gthread":
        command += ["--threads", str(args.gunicorn_threads)]
    config = " ".join(command[command.index("-w") :]) + ("" if args.direct else ", behind nginx (1-second board cache)")
    gunicorn = subprocess.Popen([*command, "--log-level", "warning"], cwd=ROOT, env=served, start_new_session=True)
    proxy = None if args.direct else start_proxy(port, tmp)
    worker = None
    try:
        url = (
            f"http://127.0.0.1:{port if args.direct else proxy.port}/api/tasks/conll14/leaderboard/?metric=gotoscorer.f"
        )
        wait_until_up(url)
        load(url, args.clients, 2)  # warm-up, not counted: each worker imports the URLconf and builds the body once
        clients = f"{args.clients} clients{' accepting gzip' if args.gzip else ''}"
        ours = [gunicorn.pid, redis_server.pid, *([] if proxy is None else [proxy.pid])]
        for _ in range(args.rounds):
            report(
                f"idle, {clients}",
                load(url, args.clients, args.seconds, args.gzip, OthersCpu(database_url, lambda: ours)),
                config,
            )
            if args.busy_jobs:
                figures, busy = busy_run(args, served, database_url, url, outputs, target, tmp, ours)
                report(f"{args.workers} workers scoring, {clients}", figures, config)
                print(busy_line(busy))
        if reuse or args.no_upload:
            return

        worker = celery_worker(served, "--pool=solo", "--loglevel=WARNING", "-n", "bench@%h")
        token = Token.objects.create(user=User.objects.create(username="uploader")).key
        warm = upload_and_wait(url, token, outputs / "BART.txt", "warm-up")
        print(f"upload to visible, first job of a fresh worker (loads spaCy and the dataset): {warm:.1f} s")
        token = Token.objects.create(user=User.objects.create(username="uploader2")).key
        seconds = upload_and_wait(url, token, target, "UEDIN-MS")
        print(
            f"upload to visible, UEDIN-MS (CoNLL-14 test): {seconds:.1f} s = {seconds / library_seconds:.2f} x "
            f"the library's {library_seconds:.1f} s"
        )
    finally:
        stop_stack(gunicorn, [worker, redis_server, proxy], tmp)


def stop_stack(gunicorn: subprocess.Popen, others: list, tmp: Path) -> None:
    """Gunicorn by its process group (its workers too), then the rest; the scratch folder goes."""
    if gunicorn.poll() is None:
        os.killpg(gunicorn.pid, signal.SIGTERM)
        gunicorn.wait()
    for process in others:
        stop(process)
    shutil.rmtree(tmp, ignore_errors=True)


def report(label: str, figures: dict, config: str) -> None:
    print(
        f"leaderboard API, {label}, gunicorn {config}, {figures['generator']}, {figures['seconds']} s, "
        f"load average before {figures['load_before']:.2f}, after {figures['load_after']:.2f}, "
        f"other work's CPU {figures['others_cpu']:.1f} s "
        f"({figures['others_cpu'] / (figures['seconds'] * cores()) * 100:.0f}% of {cores()} cores): "
        f"{figures['rps']} req/s, p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms, "
        f"mean {figures['mean_ms']} ms, errors {figures['errors']} (target p95 < 50 ms: "
        f"{'met' if figures['p95_ms'] < 50 else 'NOT met'})"
    )


def busy_run(
    args, env: dict, database_url: str, url: str, outputs: Path, target: Path, tmp: Path, ours: list[int]
) -> tuple[dict, dict]:
    """The board under load while ``args.workers`` workers score uploads of the seeded
    teams (each scored one replaces its team's entry on the board, so the pool keeps its
    size and changes version under the clients)."""
    from leaderboard.models import Phase, Team

    phase = Phase.objects.select_related("task", "dataset").get(task__slug="conll14")
    teams = list(Team.objects.filter(name__startswith="team").order_by("name"))
    # real system outputs, those not seeded first (their lines are not parsed yet); not the
    # upload timed last, whose lines would then be parsed already
    files = sorted(
        (p for p in outputs.glob("*.txt") if p.stem not in ("INPUT", target.stem)),
        key=lambda p: (p.stem in SEEDS, p.stem),
    )
    workers = ScoringWorkers(env, args.workers, tmp)
    try:
        ids = queue_jobs(phase, teams, files, args.busy_jobs)
        wait_until_warm(database_url, ids, args.workers)
        load(url, args.clients, 2, args.gzip)  # warm-up: the pool version moved
        with BusyCheck(database_url, ids, workers) as check:
            others = OthersCpu(database_url, lambda: [*ours, *(p.pid for p in workers.processes)])
            figures = load(url, args.clients, args.seconds, args.gzip, others)
        return figures, {**check.summary(), "nice": workers.nice()}
    finally:
        workers.stop()
        import redis

        redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()  # the jobs left queued


def busy_line(busy: dict) -> str:
    share = sum(busy["cpu"]) / (busy["seconds"] * cores()) * 100
    return (
        f"  workers ({'; '.join(busy['nice'])}): both running a job in {busy['all_running']}/{busy['samples']} "
        "samples, "
        f"fewest queued {busy['min_queued']}, {busy['finished']} jobs finished ({busy['failed']} failed), "
        f"CPU {busy['cpu']} s in {busy['seconds']} s ({share:.0f}% of {cores()} cores): "
        f"{'busy throughout' if busy['busy'] else 'NOT busy throughout'}"
    )


def seeded(name: str) -> bool:
    """Whether the database exists with the conll14 task (for --reuse)."""
    import psycopg

    try:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}") as connection:
            return bool(connection.execute("SELECT 1 FROM leaderboard_sharedtask WHERE slug = 'conll14'").fetchone())
    except psycopg.Error:
        return False


def seed(args, outputs: Path, target: Path) -> float:
    """The task, three systems scored for real, copies up to --submissions; the library's time on ``target``."""
    from django.conf import settings
    from django.contrib.auth.models import User

    import scoring
    from leaderboard.models import MetricResult, Submission, Team
    from leaderboard.services.data.datasets import load_dataset
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.pool.membership import sync_pool
    from leaderboard.services.scoring_jobs.submission import prepared_metrics, score_submission
    from leaderboard.services.submissions.intake import accept_submission

    conll = settings.SHARED_DIR / "data" / "seeda" / "conll14" / "official-2014.combined.m2"
    t = time.monotonic()
    task = create_task(
        "conll14", title="CoNLL-2014", m2=conll.read_text(encoding="utf-8"), metrics=args.metrics.split(",")
    )
    phase = task.phases.get()
    print(
        f"task prepared: {phase.dataset.n_sentences} sentences, metrics {task.metric_names()}, "
        f"{time.monotonic() - t:.1f} s"
    )

    scored = []
    for name in SEEDS:
        user = User.objects.create(username=f"seed-{name.lower()}")
        submission = accept_submission(
            phase,
            user,
            system_name=name,
            filename=f"{name}.txt",
            content=(outputs / f"{name}.txt").read_bytes(),
            queue=False,
        )
        t = time.monotonic()
        score_submission(submission.pk)
        print(f"scored {name} in {time.monotonic() - t:.1f} s")
        scored.append(submission)

    # the scoring library's own time for the upload used below (warm: model and dataset loaded)
    dataset, metrics = load_dataset(phase.dataset_id), prepared_metrics(phase)
    t = time.monotonic()
    hypothesis = scoring.read_hypothesis(dataset, target.read_bytes(), "UEDIN-MS")
    scoring.system_statistics(dataset, hypothesis, metrics)
    library_seconds = time.monotonic() - t
    print(f"scoring library alone on UEDIN-MS ({phase.dataset.n_sentences} lines): {library_seconds:.2f} s")

    # copies of the three scored systems: team by team, each team's batch then one pool
    # sync (one join per transaction, as uploads arrive in production)
    results = {s.pk: list(MetricResult.objects.filter(submission=s)) for s in scored}
    per_team = max(1, (args.submissions - len(SEEDS)) // args.teams)
    t = time.monotonic()
    made = 0
    for k in range(args.teams):
        team = Team.objects.create(name=f"team{k:03d}")
        count = per_team if k < args.teams - 1 else args.submissions - len(SEEDS) - made
        for j in range(count):
            source = scored[(made + j) % len(SEEDS)]
            copy = Submission.objects.create(
                phase=phase,
                team=team,
                system_name=f"{source.system_name}-{made + j}",
                filename=source.filename,
                content=bytes(source.content),
                size=source.size,
                status="scored",
                progress=1.0,
                signature=source.signature,
                scored_at=source.scored_at,
                heartbeat_at=source.scored_at,
            )
            MetricResult.objects.bulk_create(
                [
                    MetricResult(submission=copy, metric=r.metric, statistics=r.statistics, scores=r.scores)
                    for r in results[source.pk]
                ]
            )
        made += count
        sync_pool(phase.pk)
    from leaderboard.models import Pool

    print(
        f"{Submission.objects.count()} scored submissions, pool of {Pool.objects.get(phase=phase).size}: "
        f"{time.monotonic() - t:.1f} s "
        f"({(time.monotonic() - t) / args.teams:.2f} s per team incl. one pool join)"
    )

    return library_seconds


def start_proxy(upstream_port: int, tmp: Path) -> subprocess.Popen:
    """nginx with the compose file's config in front of the gunicorn on ``upstream_port``
    (scripts/proxy installs it when missing); its port is the process's ``port``."""
    subprocess.run(["bash", str(ROOT / "scripts" / "proxy")], check=True)
    port = free_port()
    process = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "proxy"), "run", f"127.0.0.1:{upstream_port}", str(port), str(tmp / "proxy")],
        start_new_session=True,
    )
    process.port = port
    return process


def wait_until_up(url: str) -> None:
    import urllib.request

    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not come up")


def upload_and_wait(board_url: str, token: str, path: Path, system: str) -> float:
    """POST the file (multipart) and poll the leaderboard until it lists the submission."""
    import urllib.request
    import uuid

    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="system_name"\r\n\r\n{system}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{path.name}"\r\nContent-Type: text/plain\r\n\r\n'
        ).encode()
        + path.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    submit_url = board_url.split("/leaderboard/")[0] + "/submissions/"
    request = urllib.request.Request(
        submit_url,
        data=body,
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    started = time.monotonic()
    submission_id = json.loads(urllib.request.urlopen(request, timeout=30).read())["id"]
    while time.monotonic() - started < 600:
        rows = json.loads(urllib.request.urlopen(board_url, timeout=10).read())["rows"]
        if any(row["submission_id"] == submission_id for row in rows):
            return time.monotonic() - started
        time.sleep(0.1)
    raise RuntimeError("the upload never reached the leaderboard")


if __name__ == "__main__":
    main()
