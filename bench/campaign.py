"""Human evaluation campaigns at a real campaign's size.

1. Re-ranking 10,000 judgments in one worker: the sign test over every annotator's
   controls, Expected Wins, TrueSkill, 1,000 bootstrap samples for the rank ranges,
   Cohen's kappa between and within annotators, and every metric's correlation with EW
   and TS (1,000 samples) -- the job ``campaigns.services.human_ranking.refresh_ranking`` runs.
2. The next screen while 20 annotators judge at once: gunicorn (2 sync workers, DEBUG=0,
   as docker/compose.yaml runs it) on the same database, one Celery worker (niced, as
   deployed) re-ranking as the judgments arrive, and 20 client threads, each an
   annotator who asks ``next/``, looks at the screen for ``--think`` seconds (uniformly
   0.5 to 1.5 times it; people take far longer per screen) and posts the judgment, again
   and again; then the same with no thinking time at all (a stress: every request waits
   for the 19 others). Prints p50/p95/p99 of ``next/`` and of ``judgments/``.

    python bench/campaign.py [--systems 10] [--lines 100] [--judgments 10000] [--seconds 30] [--annotators 20]
    [--think 2]

Runs on a database of its own made by Django's test machinery on PostgreSQL at
127.0.0.1:5432 (created, then dropped) and the test settings' Redis database. The task:
``--lines`` sentences of the CoNLL-2014 gold the repository ships, ``--systems``
simulated systems scored for real (ERRANT, GoToScorer, CLEME2.0 where registered).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings_test")

from busy_workers import celery_worker, tree_cpu_seconds  # noqa: E402
from machine import OthersCpu, backend_pids, cores  # noqa: E402  (bench/machine.py: CPU others took meanwhile)

NAMES = [
    "T5",
    "BART",
    "GECToR-BERT",
    "GPT-3.5",
    "PIE",
    "TemplateGEC",
    "LM-Critic",
    "UEDIN-MS",
    "Riken-Tohoku",
    "TransGEC",
    "BERT-fuse",
    "GECToR-ens",
]


def percentiles(values: list[float]) -> str:
    if not values:
        return "no requests"
    ordered = sorted(values)

    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return (
        f"p50 {at(0.5):.1f} ms, p95 {at(0.95):.1f} ms, p99 {at(0.99):.1f} ms, max {ordered[-1] * 1000:.1f} ms "
        f"({len(values)} requests)"
    )


def build(systems: int, lines: int, annotators: int, screens: int):
    from django.contrib.auth.models import User

    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign
    from leaderboard.campaigns.services.jobs import run_campaign_job
    from tests.conftest import build_insight_task

    start = time.perf_counter()
    data = build_insight_task("bench", lines=lines, teams={f"team{k}": NAMES[k] for k in range(systems - 1)})
    print(
        f"task: {lines} sentences, {systems} systems scored ({', '.join(data['task'].metric_names())}) in "
        f"{time.perf_counter() - start:.0f} s"
    )
    for k in range(annotators):
        User.objects.create_user(f"ann{k}", password="pw")
    start = time.perf_counter()
    campaign = create_campaign(
        data["task"],
        data["organizer"],
        CampaignSettings(
            name="bench",
            annotators=[f"ann{k}" for k in range(annotators)],
            screens_per_annotator=screens,
            redundancy=2,
            repeats=screens // 20,
            controls=0.1,
            seed=1,
        ),
    )
    from tests.campaigns.support import accept_invitations

    accept_invitations(campaign)  # nobody annotates before accepting
    run_campaign_job(campaign.pk)
    campaign.refresh_from_db()
    print(
        f"campaign: {annotators} annotators x {screens} screens prepared (sampling, controls, edits) in "
        f"{time.perf_counter() - start:.1f} s: {campaign.status} {campaign.message}"
    )
    return data, campaign


def simulated_ranks(screen, quality: dict[int, float], rng: random.Random, careless: bool) -> dict[str, int]:
    """An annotator's ranking: by the systems' hidden quality plus noise; a control below its original unless
    careless."""
    scores = {}
    for output in screen.outputs:
        if output["control_of"]:
            scores[output["key"]] = rng.random() if careless else -1.0
        else:
            scores[output["key"]] = max(quality[pk] for pk in output["systems"]) + rng.gauss(0, 0.3)
    order = sorted(scores, key=lambda k: -scores[k])
    ranks, previous, rank = {}, None, 0
    for position, key in enumerate(order, start=1):
        if previous is None or abs(scores[key] - previous) > 0.05:
            rank = position
        ranks[key], previous = rank, scores[key]
    return ranks


def fill_judgments(campaign, count: int) -> int:
    """Store ``count`` judgments at once (each annotator's queue in order), as if judged."""
    from django.db.models import F

    from leaderboard.models import Assignment, Campaign, Judgment

    rng = random.Random(3)
    quality = {pk: rng.random() for pk in campaign.systems.values_list("pk", flat=True)}
    careless = {a.pk for a in campaign.annotators.order_by("pk")[:2]}
    assignments = list(
        Assignment.objects.filter(campaign=campaign)
        .select_related("screen", "annotator")
        .order_by("position", "annotator_id")[:count]
    )
    Judgment.objects.bulk_create(
        [
            Judgment(
                campaign=campaign,
                assignment=a,
                annotator=a.annotator,
                user=a.annotator.username,
                line=a.screen.line,
                ranks=simulated_ranks(a.screen, quality, rng, a.annotator_id in careless),
            )
            for a in assignments
        ],
        batch_size=2000,
    )
    Assignment.objects.filter(pk__in=[a.pk for a in assignments]).update(judged=True)
    Campaign.objects.filter(pk=campaign.pk).update(version=F("version") + len(assignments))
    return len(assignments)


def time_reranking(campaign) -> None:
    from leaderboard.campaigns.insights.judgments import count_judgments, system_labels
    from leaderboard.campaigns.services import human_ranking
    from scoring.human import rank_systems

    labels = system_labels(list(campaign.systems.select_related("team")))
    start = time.perf_counter()
    counted = count_judgments(campaign, labels)
    read = time.perf_counter() - start
    start = time.perf_counter()
    human = rank_systems(counted.items, bootstrap=human_ranking.BOOTSTRAP, seed=campaign.seed).as_json()
    ranked = time.perf_counter() - start
    start = time.perf_counter()
    correlations = human_ranking.correlations(campaign, human, labels)
    correlated = time.perf_counter() - start
    with OthersCpu(database_url(), lambda: []) as others:
        start, cpu = time.perf_counter(), time.process_time()
        human_ranking.refresh_ranking(campaign.pk)
        whole, whole_cpu = time.perf_counter() - start, time.process_time() - cpu
    campaign.refresh_from_db()
    results = campaign.results
    print(
        f"re-ranking {results['rankings']:,} counted rankings of {sum(counted.screens.values()):,} judgments "
        f"({len(counted.untrusted)} untrusted annotators left out), {len(results['systems'])} systems, "
        f"{len(correlations)} score paths:"
    )
    print(
        f"  the whole job: {whole:.2f} s ({whole_cpu:.2f} CPU s of this process; the database's work is in the "
        f"wall time); of which reading and the controls {read:.2f} s, "
        f"EW + TrueSkill + {human_ranking.BOOTSTRAP} bootstrap samples + kappa {ranked:.2f} s, correlations "
        f"{correlated:.2f} s"
    )
    print(
        f"  agreement: inter {results['agreement']['inter']}, intra {results['agreement']['intra']}; clusters "
        f"{len(results['clusters'])}; "
        f"other work on the machine meanwhile: {others.seconds:.1f} CPU s"
    )


def database_url() -> str:
    from django.db import connection

    database = connection.settings_dict
    return f"postgresql://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(env: dict, port: int) -> list[subprocess.Popen]:
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "leaderboard.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    worker = celery_worker(
        env, "--pool=solo", "--concurrency=1", "--loglevel=WARNING", "--without-gossip", "--without-mingle"
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/api/tasks/")
            connection.getresponse().read()
            return [web, worker]
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer")


def annotate(
    port: int, token: str, think: float, next_times: list, post_times: list, errors: list, stop_at: float
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"}
    rng = random.Random(token)
    base = "/api/tasks/bench/campaigns/bench/"
    while time.monotonic() < stop_at:
        start = time.perf_counter()
        connection.request("GET", base + "next/", headers=headers)
        response = connection.getresponse()
        body = response.read()
        next_times.append(time.perf_counter() - start)
        if response.status == 204:
            return
        if response.status != 200:
            errors.append(response.status)
            return
        screen = json.loads(body)
        if think:
            time.sleep(think * rng.uniform(0.5, 1.5))
        keys = [o["key"] for o in screen["outputs"]]
        ranks = {key: rng.randint(1, len(keys)) for key in keys}
        start = time.perf_counter()
        connection.request(
            "POST", base + "judgments/", body=json.dumps({"item": screen["item"], "ranks": ranks}), headers=headers
        )
        response = connection.getresponse()
        response.read()
        post_times.append(time.perf_counter() - start)
        if response.status != 201:
            errors.append(response.status)


def load(campaign, annotators: int, seconds: float, thinks: list[float]) -> None:
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    from leaderboard.models import Campaign

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "leaderboard.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "GEC_ANON_API_RATE": "100000/min",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
    }  # plain HTTP straight to gunicorn (no proxy in front)
    tokens = [Token.objects.get_or_create(user=u)[0].key for u in campaign.annotators.order_by("pk")[:annotators]]
    port = free_port()
    processes = serve(env, port)
    try:
        for think in thinks:
            next_times, post_times, errors = [], [], []
            before = Campaign.objects.get(pk=campaign.pk)
            others = OthersCpu(database_url(), lambda: [p.pid for p in processes]).__enter__()
            backends = backend_pids(database_url())
            web_cpu = tree_cpu_seconds(processes[0].pid) + sum(tree_cpu_seconds(pid) for pid in backends)
            stop_at = time.monotonic() + seconds
            threads = [
                threading.Thread(target=annotate, args=(port, token, think, next_times, post_times, errors, stop_at))
                for token in tokens
            ]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.perf_counter() - started
            others.__exit__()
            web_cpu = tree_cpu_seconds(processes[0].pid) + sum(tree_cpu_seconds(pid) for pid in backends) - web_cpu
            after = Campaign.objects.get(pk=campaign.pk)
            print(
                f"{annotators} annotators judging at once for {took:.0f} s, {think:g} s per screen "
                f"({len(post_times) / took:.1f} judgments/s, "
                f"{len(errors)} errors {sorted(set(errors))}), load average {os.getloadavg()[0]:.1f}:"
            )
            print(f"  next/      {percentiles(next_times)}")
            print(f"  judgments/ {percentiles(post_times)}")
            print(
                "  CPU per request (gunicorn and the PostgreSQL backends it had when the run began): "
                f"{1000 * web_cpu / max(1, len(next_times) + len(post_times)):.1f} ms"
            )
            print(
                f"  the worker re-ranked meanwhile: from version {before.ranked_version} to "
                f"{after.ranked_version} of {after.version}; "
                f"other work on the machine: {others.seconds:.1f} CPU s"
            )
    finally:
        for process in processes:  # the worker may hold a re-ranking's countdown: no warm shutdown
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--lines", type=int, default=100)
    parser.add_argument("--judgments", type=int, default=10_000)
    parser.add_argument("--annotators", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--think", type=float, default=2.0, help="seconds an annotator looks at a screen (then a run with none)"
    )
    args = parser.parse_args()
    import django

    django.setup()
    from django.db import connection

    print(
        f"machine: {cores()} cores, load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f}"
    )
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        screens = -(-args.judgments // args.annotators) + 200  # screens left to judge in the load part
        data, campaign = build(args.systems, args.lines, args.annotators, screens)
        filled = fill_judgments(campaign, args.judgments)
        print(f"{filled:,} judgments stored")
        time_reranking(campaign)
        load(campaign, args.annotators, args.seconds, [args.think, 0.0])
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
