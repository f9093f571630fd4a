"""Tasks of any size an organizer brings: prepare, cold and warm upload, worker memory.

The per-file limits (``GEC_MAX_FILE_TOKENS``, ``GEC_MAX_FILE_CHARS``) admit test sets of
about 10,000 sentences; a site hosting larger ones raises them, and needs to know what
such a task then costs its workers. For each size (default 500, 2,000, 5,000, 10,000 and
20,000 sentences) this bench hosts a task on the platform's own path, with the limits
lifted through those settings and every default metric, and measures:

- prepare: the job a worker runs on gold an organizer uploaded (``run_organizer_job``:
  parse and annotate the gold once, store it, and write the GoToScorer gold chunks of
  the phase already added on it); the page's check of the upload, before the gold is
  stored unprepared, is printed apart (``--json``: ``gold_check_cpu_s``);
- cold upload: a first system's output, accepted as an upload (its check:
  ``upload_check_cpu_s``) and scored by the job a Celery worker runs
  (``score_submission``) in a fresh worker process: the prepared dataset loaded from
  the database, the metrics' once-per-dataset tables made and stored, the spaCy model
  loaded, the output parsed, every metric's statistics, the pool;
- warm upload: a further system scored by that same worker.

The job steps each run in a child process (the prepare job in one, both uploads in
another), so CPU seconds (the process and its children, stable under load), wall seconds
and peak RSS (``ru_maxrss``) are per size and per worker; the CPU of the PostgreSQL
backend serving the job is printed apart (``--json``: ``pg_cpu_s``).

The data is real in shape but tiled: the CoNLL-2014 test set's M2 gold with two
annotators (``data/cleme/conll14.errant``, 1,312 sentences, the ERRANT re-annotation)
repeated to the size, and two SEEDA system outputs for the same sentences (BART for the
cold upload, T5 for the warm one) repeated alike. The platform parses a repeated line
once (scoring/line_cache.py), so every copy after the first ends each of its lines (the
gold's source sentences and the outputs alike) with a token of its own, ``(k)`` for copy
k, outside every edit: no line repeats across copies, while each copy's edits stay
those of the real data.

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench_task_size``, or ``--database``:
dropped and re-created, and dropped at the end). Jobs are not sent anywhere: the broker is
in-memory, and the bench calls each job's function as a worker does.

    python bench/task_size.py [--sizes 500,2000,5000,10000,20000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fresh_database import drop_database, fresh_database  # noqa: E402

SHARED = Path(os.environ.get("GEC_SHARED_DIR", ROOT.parent / "shared")) / "data"
GOLD_M2 = SHARED / "cleme" / "conll14.errant"
OUTPUTS = SHARED / "seeda" / "seeda" / "outputs" / "all"
SYSTEMS = ("BART", "T5")  # the cold upload's, the warm one's
DB_NAME = "gec_bench_task_size"
SIZES = (500, 2_000, 5_000, 10_000, 20_000)
LIFTED = 10**9  # GEC_MAX_FILE_TOKENS and GEC_MAX_FILE_CHARS: no file of this bench comes near


# -- the tiled data -------------------------------------------------------------------------
def marker(copy: int) -> str:
    """The token that ends every line of copy ``copy`` (none on the real data, copy 0)."""
    return f" ({copy})" if copy else ""


def tiled_gold(sentences: int) -> str:
    """The M2 gold repeated to ``sentences`` blocks, each copy's source lines marked (its
    edits' offsets stay valid: the marker comes after the last token)."""
    blocks = [b for b in GOLD_M2.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    out = []
    for i in range(sentences):
        source, *edits = blocks[i % len(blocks)].strip("\n").split("\n")
        out.append("\n".join([source + marker(i // len(blocks)), *edits]))
    return "\n\n".join(out) + "\n"


def tiled_output(system: str, sentences: int) -> str:
    lines = (OUTPUTS / f"{system}.txt").read_text(encoding="utf-8").splitlines()
    return "".join(lines[i % len(lines)] + marker(i // len(lines)) + "\n" for i in range(sentences))


# -- measuring ------------------------------------------------------------------------------
def cpu_seconds() -> float:
    """CPU seconds of this process and its children so far."""
    return sum(
        u.ru_utime + u.ru_stime for u in map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    )


def measured(action) -> dict:
    """``action()``'s CPU seconds (this process and its children), wall seconds and the CPU
    seconds of this connection's PostgreSQL backend."""
    from pool_join_db import backend_cpu

    pg, wall, cpu = backend_cpu(), time.perf_counter(), cpu_seconds()
    action()
    return {
        "cpu_s": round(cpu_seconds() - cpu, 2),
        "wall_s": round(time.perf_counter() - wall, 2),
        "pg_cpu_s": round(backend_cpu() - pg, 2),
    }


def peak_rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KB on Linux


# -- the worker processes -------------------------------------------------------------------
def prepare_worker(job_id: int) -> dict:
    """The organizer job a worker runs on uploaded gold, in this fresh process."""
    from leaderboard.models import OrganizerJob
    from leaderboard.services.hosting.organizer_jobs import run_job

    step = measured(lambda: run_job(job_id))
    job = OrganizerJob.objects.get(pk=job_id)
    if job.status != OrganizerJob.Status.DONE:
        raise SystemExit(f"the prepare job ended {job.status}: {job.message}")
    return {"prepare": step, "rss_mb": peak_rss_mb()}


def scoring_worker(cold_id: int, warm_id: int) -> dict:
    """Two uploads scored one after the other by this fresh worker process."""
    from leaderboard.models import MetricResult, Submission
    from leaderboard.services.scoring_jobs.queued import score_queued

    steps = {"cold": measured(lambda: score_queued(cold_id)), "warm": measured(lambda: score_queued(warm_id))}
    for pk in (cold_id, warm_id):
        submission = Submission.objects.get(pk=pk)
        if submission.status != Submission.Status.SCORED:
            raise SystemExit(f"upload {submission.system_name} ended {submission.status}: {submission.error}")
    errant = dict(
        MetricResult.objects.filter(submission_id__in=[cold_id, warm_id], metric="errant").values_list(
            "submission_id", "scores"
        )
    )
    steps["errant_f"] = [round(errant[pk]["cs"]["f"], 4) for pk in (cold_id, warm_id)]
    return {**steps, "rss_mb": peak_rss_mb()}


def in_child(step: str, *ids: int) -> dict:
    """Run a worker step in a fresh process (this script, ``--child``); its JSON answer."""
    answer = subprocess.run(
        [sys.executable, __file__, "--child", step, *map(str, ids)], cwd=ROOT, capture_output=True, text=True
    )
    if answer.returncode:
        raise SystemExit(f"the {step} worker failed:\n{answer.stderr[-4000:]}{answer.stdout[-2000:]}")
    return json.loads(answer.stdout.strip().splitlines()[-1])


def child(step: str, ids: list[int]) -> None:
    import django

    django.setup()
    print(json.dumps(prepare_worker(*ids) if step == "prepare" else scoring_worker(*ids)))


# -- the organizer and the participants (this process: the web's side) ------------------------
def one_size(sentences: int, user) -> dict:
    from leaderboard.models import OrganizerJob, Phase
    from leaderboard.services.data.gold import check_gold
    from leaderboard.services.hosting.host import add_hosted_phase, host_task
    from leaderboard.services.submissions.intake import accept_submission

    gold_text = tiled_gold(sentences)
    outputs = {system: tiled_output(system, sentences) for system in SYSTEMS}
    started = cpu_seconds()
    gold = check_gold(m2=("gold.m2", gold_text.encode()), max_tokens=5000)
    check = cpu_seconds() - started
    task = host_task(user, gold, slug=f"size-{sentences}", title=f"{sentences} sentences")  # every default metric
    dataset = task.datasets.get()
    add_hosted_phase(task, {"kind": Phase.Kind.TEST}, dataset=dataset, user=user)  # its chunks: by the job
    job = OrganizerJob.objects.get(task=task, kind=OrganizerJob.Kind.PREPARE_GOLD)
    row = {
        "sentences": sentences,
        "gold_chars": len(gold_text),
        "output_tokens": len(outputs[SYSTEMS[0]].split()),
        "gold_check_cpu_s": round(check, 2),
    }
    prepared = in_child("prepare", job.pk)
    load = [os.getloadavg()[0]]
    phase = task.phases.get()
    started = cpu_seconds()
    uploads = [
        accept_submission(
            phase,
            user,
            system_name=system,
            filename=f"{system}.txt",
            content=text.encode(),
            is_baseline=True,
            enforce_limits=False,
            queue=False,  # the bench runs the worker's job itself
        )
        for system, text in outputs.items()
    ]
    row["upload_check_cpu_s"] = round((cpu_seconds() - started) / len(uploads), 2)
    scored = in_child("score", *(u.pk for u in uploads))
    load.append(os.getloadavg()[0])
    return {
        **row,
        "prepare": prepared["prepare"],
        "cold": scored["cold"],
        "warm": scored["warm"],
        "prepare_rss_mb": prepared["rss_mb"],
        "worker_rss_mb": scored["rss_mb"],
        "errant_f": dict(zip(SYSTEMS, scored["errant_f"])),
        "load_average": round(sum(load) / len(load), 2),
    }


def database_name(name: str) -> str:
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        raise argparse.ArgumentTypeError(f"not a plain database name: {name!r}")
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="sentences per task, comma-separated (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--database", default=DB_NAME, type=database_name, help="the database to create and drop (%(default)s)"
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)  # a worker step, run by the bench itself
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], [int(x) for x in args.child[1:]])
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    fresh_database(
        args.database,
        GEC_MAX_FILE_TOKENS=str(LIFTED),
        GEC_MAX_FILE_CHARS=str(LIFTED),
        GEC_TASK_MODE="celery",  # jobs are sent, as on a real site, ...
        CELERY_BROKER_URL="memory://",  # ... to nowhere: the bench runs them in its worker processes
    )
    try:
        from django.contrib.auth.models import User

        user = User.objects.create_user("organizer")
        rows = []
        for sentences in sizes:
            rows.append(one_size(sentences, user))
            print_row(rows[-1], first=len(rows) == 1, file=sys.stderr if args.json else sys.stdout)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.database)
    if args.json:
        print(json.dumps({"systems": list(SYSTEMS), "rows": rows}, indent=1))


def print_row(row: dict, *, first: bool, file=sys.stdout) -> None:
    """One size's figures as a line of the table (with ``--json``, on stderr as they come)."""
    if first:
        print(
            f"tiled CoNLL-2014 M2 gold (2 annotators), uploads {' then '.join(SYSTEMS)}; every default metric",
            file=file,
        )
        print(
            "CPU seconds of the worker process and its children (stable under load); wall seconds in brackets",
            file=file,
        )
        print(
            f"{'sentences':>9} {'gold chars':>11} {'out tokens':>10} {'prepare':>15} {'cold upload':>15} "
            f"{'warm upload':>15} {'RSS MB prep/up':>14} {'load':>5}",
            file=file,
        )
    step = lambda s: f"{s['cpu_s']:7.1f} ({s['wall_s']:5.1f})"  # noqa: E731
    print(
        f"{row['sentences']:>9,} {row['gold_chars']:>11,} {row['output_tokens']:>10,} {step(row['prepare']):>15} "
        f"{step(row['cold']):>15} {step(row['warm']):>15} "
        f"{row['prepare_rss_mb']:>6}/{row['worker_rss_mb']:<7} {row['load_average']:>5.1f}",
        file=file,
        flush=True,
    )


if __name__ == "__main__":
    main()
