"""Platform load benchmark: leaderboard API latency under 50 concurrent clients, and the
time from upload to the leaderboard showing the new system.

    python bench/platform_load.py [--submissions 500] [--clients 50] [--seconds 20]

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench``, dropped and re-created) and
Redis at 127.0.0.1:6379 (database 13). Data: CoNLL-2014 test (1312 sentences,
``official-2014.combined.m2``, two annotators) and SEEDA's full system outputs. Scores
three systems for real, copies their stored results into --submissions submissions of
50 teams, serves the API with gunicorn (gthread) and drives it with keep-alive HTTP
clients in a separate process. Then starts a Celery worker, uploads a CoNLL-14-size file
through the API and times how long until the leaderboard lists it, against the scoring
library's own time for the same file.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "gec_bench"
PORT = 8765
BROKER = "redis://127.0.0.1:6379/13"


def load_clients(url: str, clients: int, seconds: float) -> dict:
    """Closed-loop clients on keep-alive connections; latencies in ms."""
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
                connection.request("GET", path)
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
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    flat = sorted(x for per in latencies for x in per)
    return {
        "requests": len(flat), "errors": sum(errors), "seconds": round(elapsed, 1),
        "rps": round(len(flat) / elapsed, 1),
        "p50_ms": round(flat[len(flat) // 2], 2) if flat else None,
        "p95_ms": round(flat[int(len(flat) * 0.95)], 2) if flat else None,
        "mean_ms": round(statistics.fmean(flat), 2) if flat else None,
    }


def reset_database(admin_url: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DB_NAME}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--submissions", type=int, default=500)
    parser.add_argument("--teams", type=int, default=50)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--metrics", default="errant,gotoscorer")
    parser.add_argument("--gunicorn-workers", type=int, default=2)
    parser.add_argument("--client", help=argparse.SUPPRESS)  # internal: run only the load clients on this URL
    args = parser.parse_args()
    if args.client:
        print(json.dumps(load_clients(args.client, args.clients, args.seconds)))
        return

    reset_database("postgresql://postgres@127.0.0.1:5432/postgres")
    env = {
        **os.environ, "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{DB_NAME}", "CELERY_BROKER_URL": BROKER,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings", "DEBUG": "1", "SECRET_KEY": "bench", "GEC_TASK_MODE": "sync",
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    import scoring
    from leaderboard.models import MetricResult, Submission, Team
    from leaderboard.services.datasets import load_dataset
    from leaderboard.services.intake import accept_submission
    from leaderboard.services.pool import sync_pool
    from leaderboard.services.scoring import prepared_metrics, score_submission
    from leaderboard.services.tasks import create_task

    conll = settings.SHARED_DIR / "data" / "seeda" / "conll14" / "official-2014.combined.m2"
    outputs = settings.SHARED_DIR / "data" / "seeda" / "seeda" / "outputs" / "all"
    t = time.monotonic()
    task = create_task("conll14", title="CoNLL-2014", m2=conll.read_text(encoding="utf-8"), metrics=args.metrics.split(","))
    phase = task.phases.get()
    print(f"task prepared: {phase.dataset.n_sentences} sentences, metrics {task.metric_names()}, {time.monotonic() - t:.1f} s")

    seeds = ["T5", "BART", "GECToR-BERT"]
    scored = []
    for name in seeds:
        user = User.objects.create(username=f"seed-{name.lower()}")
        submission = accept_submission(phase, user, system_name=name, filename=f"{name}.txt", content=(outputs / f"{name}.txt").read_bytes(), queue=False)
        t = time.monotonic()
        score_submission(submission.pk)
        print(f"scored {name} in {time.monotonic() - t:.1f} s")
        scored.append(submission)

    # the scoring library's own time for the upload used below (warm: model and dataset loaded)
    dataset, metrics = load_dataset(phase.dataset_id), prepared_metrics(task, phase.dataset_id)
    target = outputs / "UEDIN-MS.txt"
    t = time.monotonic()
    hypothesis = scoring.read_hypothesis(dataset, target.read_bytes(), "UEDIN-MS")
    scoring.system_statistics(dataset, hypothesis, metrics)
    library_seconds = time.monotonic() - t
    print(f"scoring library alone on UEDIN-MS ({phase.dataset.n_sentences} lines): {library_seconds:.2f} s")

    # copies of the three scored systems: team by team, each team's batch then one pool
    # sync (one join per transaction, as uploads arrive in production)
    results = {s.pk: list(MetricResult.objects.filter(submission=s)) for s in scored}
    per_team = max(1, (args.submissions - len(seeds)) // args.teams)
    t = time.monotonic()
    made = 0
    for k in range(args.teams):
        team = Team.objects.create(name=f"team{k:03d}")
        count = per_team if k < args.teams - 1 else args.submissions - len(seeds) - made
        for j in range(count):
            source = scored[(made + j) % len(seeds)]
            copy = Submission.objects.create(
                phase=phase, team=team, system_name=f"{source.system_name}-{made + j}", filename=source.filename,
                content=bytes(source.content), size=source.size, status="scored", progress=1.0, signature=source.signature,
                scored_at=source.scored_at, heartbeat_at=source.scored_at,
            )
            MetricResult.objects.bulk_create([MetricResult(submission=copy, metric=r.metric, statistics=r.statistics, scores=r.scores) for r in results[source.pk]])
        made += count
        sync_pool(phase.pk)
    from leaderboard.models import Pool

    print(f"{Submission.objects.count()} scored submissions, pool of {Pool.objects.get(phase=phase).size}: {time.monotonic() - t:.1f} s "
          f"({(time.monotonic() - t) / args.teams:.2f} s per team incl. one pool join)")

    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "leaderboard.wsgi", "-b", f"127.0.0.1:{PORT}", "-w", str(args.gunicorn_workers), "-k", "gthread", "--threads", "8", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    worker = None
    try:
        url = f"http://127.0.0.1:{PORT}/api/tasks/conll14/leaderboard/?metric=gotoscorer.f"
        wait_until_up(url)
        load = subprocess.run([sys.executable, __file__, "--client", url, "--clients", str(args.clients), "--seconds", str(args.seconds)], capture_output=True, text=True, check=True)
        figures = json.loads(load.stdout)
        print(f"leaderboard API, {args.clients} clients, {figures['seconds']} s: {figures['rps']} req/s, p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, errors {figures['errors']}")

        import redis

        redis.Redis.from_url(BROKER).flushdb()
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "leaderboard", "worker", "--pool=solo", "--loglevel=WARNING", "-n", "bench@%h"],
            cwd=ROOT, env={**env, "GEC_TASK_MODE": "celery"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        token = Token.objects.create(user=User.objects.create(username="uploader")).key
        warm = upload_and_wait(url, token, outputs / "BART.txt", "warm-up")
        print(f"upload to visible, first job of a fresh worker (loads spaCy and the dataset): {warm:.1f} s")
        token = Token.objects.create(user=User.objects.create(username="uploader2")).key
        seconds = upload_and_wait(url, token, target, "UEDIN-MS")
        print(f"upload to visible, UEDIN-MS ({phase.dataset.n_sentences} lines): {seconds:.1f} s = {seconds / library_seconds:.2f} x the library's {library_seconds:.1f} s")
    finally:
        for process in (gunicorn, worker):
            if process is not None:
                process.terminate()
                process.wait()


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
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"system_name\"\r\n\r\n{system}\r\n"
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{path.name}\"\r\nContent-Type: text/plain\r\n\r\n"
    ).encode() + path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    submit_url = board_url.split("/leaderboard/")[0] + "/submissions/"
    request = urllib.request.Request(submit_url, data=body, method="POST", headers={"Authorization": f"Token {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
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
