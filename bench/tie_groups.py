"""A board's significance groups at CoNLL-2014 size: from the statistics against from kept
sampled scores (leaderboard.insights.sampled).

A phase on the full 1,312-sentence CoNLL-2014 gold (``derived/full/ref_par.m2``) gets
--rows scored submissions whose ERRANT statistics are synthetic but shaped as stored
ones (two references, four modes, per-type counts: ~0.7 MB of JSON a row). Prints wall
and CPU seconds (this process) of the groups by ``errant.cs.f``:

* old, cold: every row's statistics read and parsed, resampled, each pair bootstrapped
  (what a worker process without the former in-memory cache paid for every refresh);
* old, one new score (warm): the former per-process cache held the others' resamplings;
* new, cold: no vector kept yet (computed and stored once, for all processes);
* new, warm: every vector kept (any process, any later refresh);
* new, one new score: one row's statistics read, the rest from the table;

and checks that old and new give the same groups.

``--metric gotoscorer.f`` (any resampled GoToScorer path) instead: --rows pool members
with synthetic outcomes on the gold chunks of that M2 (reference 0), joined through the
platform's pool; then one more joins, and the refresh that follows is timed:

* old: every row's statistics read and decoded, resampled with the pool's n_i and N,
  each pair's paired bootstrap (each row sampled twice);
* new: every member's packed bits and n_i read, all members sampled in one product
  (``leaderboard.insights.pooled_samples``).

``--json`` prints one JSON object last: ``refresh_after_join_cpu_s`` (the new refresh's
CPU seconds, median of --repeat) and the other figures. ``--skip-old`` times the new path only.

Needs PostgreSQL at 127.0.0.1:5432 (database ``gec_bench_ties``, dropped and re-created).

    python bench/tie_groups.py [--rows 50] [--repeat 3] [--metric errant.cs.f] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from fresh_database import JOBS_SENT, fresh_database
from seeded_board import REF_M2, scored_entries

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DB_NAME = "gec_bench_ties"
PATH = "errant.cs.f"
TYPES = ["R:NOUN", "M:DET", "U:PUNCT", "R:VERB:TENSE", "R:PREP", "R:ORTH"]
SENTENCES, REFS = 1312, 2


def errant_statistics(quality: float, rng: np.random.Generator) -> dict:
    """ERRANT statistics as stored (``scoring.metrics.errant.sentence_statistics``) of a
    system that finds about ``quality`` of the gold edits."""

    def entry():
        gold = int(rng.integers(0, 5))
        tp = int(rng.binomial(gold, quality))
        fp = int(rng.poisson(0.6))
        types = {}
        for _ in range(tp + fp + gold - tp):
            counts = types.setdefault(TYPES[int(rng.integers(len(TYPES)))], [0, 0, 0])
            counts[int(rng.integers(3))] += 1
        return [tp, fp, gold - tp, types]

    counts = {mode: [[entry() for _ in range(REFS)] for _ in range(SENTENCES)] for mode in ("cs", "ds", "dt", "cse")}
    return {"refs": [list(range(REFS))] * SENTENCES, "counts": counts}


def seed(rows: int, rng: np.random.Generator):
    """A task on the M2 gold (no parsing) and ``rows`` + 1 submissions with ERRANT
    statistics; the last is the newcomer, not yet on the board."""
    from django.utils import timezone

    from leaderboard.models import MetricResult
    from leaderboard.services.hosting.task_creation import create_task
    from scoring import resampling

    task = create_task("ties-bench", m2=REF_M2.read_text(encoding="utf-8"), metrics=["gotoscorer"])
    phase = task.phases.get()
    options = phase.scoring_options()
    now = timezone.now()
    submissions = scored_entries(phase, rows + 1, scored_at=now)
    board = []
    for submission in submissions:
        stats = errant_statistics(rng.uniform(0.2, 0.45), rng)
        MetricResult.objects.create(submission=submission, metric="errant", statistics=stats, scores={})
        value = resampling(PATH, stats, options).corpus()[PATH]
        board.append({"submission_id": submission.pk, "value": value, "scored_at": now.isoformat()})
    newcomer = board.pop()
    return phase, sorted(board, key=lambda r: -r["value"]), newcomer


def gotoscorer_outcomes(gold: np.ndarray, quality: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(modified, correct) of a system that corrects about ``quality`` of the gold chunks
    needing it and changes about 2% of the others wrongly."""
    found = gold & (rng.random(len(gold)) < quality)
    wrong_change = ~gold & (rng.random(len(gold)) < 0.02)
    modified = found | wrong_change | (gold & (rng.random(len(gold)) < 0.15))
    return modified, np.where(gold, found, ~wrong_change)


def seed_pool(rows: int, rng: np.random.Generator):
    """A GoToScorer task on the M2 gold and ``rows`` pool members; returns the phase and a
    function that adds one more scored submission (not yet joined)."""

    from leaderboard.models import GoldChunk, MetricResult, Team
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.pool.membership import sync_pool

    task = create_task("ties-bench", m2=REF_M2.read_text(encoding="utf-8"), metrics=["gotoscorer"])
    phase = task.phases.get()
    chunks = list(GoldChunk.objects.filter(phase=phase).order_by("position").values_list("sentence", "modified"))
    sentence_of = np.array([s for s, _ in chunks])
    gold = np.array([m for _, m in chunks], dtype=bool)
    bounds = np.searchsorted(sentence_of, np.arange(sentence_of.max() + 2))

    def bits(flags: np.ndarray) -> list[str]:
        text = "".join("1" if f else "0" for f in flags)
        return [text[bounds[k] : bounds[k + 1]] for k in range(len(bounds) - 1)]

    gold_bits = bits(gold)

    def add(count: int) -> list[int]:
        submissions = scored_entries(phase, count, first=Team.objects.count())
        results = []
        for submission in submissions:
            modified, correct = gotoscorer_outcomes(gold, rng.uniform(0.1, 0.5), rng)
            stats = {"ref": 0, "gold": gold_bits, "modified": bits(modified), "correct": bits(correct)}
            results.append(MetricResult(submission=submission, metric="gotoscorer", statistics=stats, scores={}))
        MetricResult.objects.bulk_create(results)
        return [s.pk for s in submissions]

    add(rows)
    sync_pool(phase.pk)
    return phase, add, len(chunks)


def old_pool_groups(phase, rows, path):
    """The former pooled path: every row's statistics read and resampled, each pair bootstrapped."""
    from leaderboard.insights.board import metric_statistics, pool_counts
    from leaderboard.insights.ties import tie_groups

    statistics = metric_statistics([r["submission_id"] for r in rows if r["value"] is not None], "gotoscorer")
    return tie_groups(rows, statistics, path, phase.scoring_options(), pool=pool_counts(phase))


def pool_main(args) -> None:
    """The GoToScorer board: the refresh after one more member joins, old and new. The
    jobs a join asks for (the boards' groups) are sent to no broker, as a worker's would
    be: the join is timed alone, the refresh apart."""
    fresh_database(DB_NAME, GEC_POOL="all", **JOBS_SENT)
    from leaderboard.insights.board import board_rows_in_track, compute_tie_groups
    from leaderboard.services.pool.membership import sync_pool
    from leaderboard.standings import board_rows

    start = time.perf_counter()
    phase, add, chunks = seed_pool(args.rows, np.random.default_rng(2014))
    print(f"seeded a pool of {args.rows} members on {chunks} gold chunks in {time.perf_counter() - start:.1f} s")
    figures: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.repeat):
        add(1)
        join_wall, join_cpu, _ = timed(lambda: sync_pool(phase.pk))
        figures.setdefault("join (sync_pool)", []).append((join_wall, join_cpu))
        rows = board_rows_in_track(phase, board_rows(phase.pk, args.metric), "")
        wall, cpu, new = timed(lambda rows=rows: compute_tie_groups(phase, rows, args.metric))
        figures.setdefault("new refresh after a join", []).append((wall, cpu))
        if not args.skip_old:
            wall, cpu, old = timed(lambda rows=rows: old_pool_groups(phase, rows, args.metric))
            figures.setdefault("old refresh after a join", []).append((wall, cpu))
            assert old == new, "old and new groups differ"
    report(figures, args, rows=len(rows), groups=len({g["group"] for g in new.values()}))


def report(figures: dict[str, list[tuple[float, float]]], args, **extra) -> None:
    """Medians of each figure, then (``--json``) one JSON object."""
    medians = {
        name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        for name, runs in figures.items()
    }
    for name, (wall, cpu) in medians.items():
        print(f"{name:38s} wall {wall:6.3f} s   cpu {cpu:6.3f} s")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.json:
        keys = {"new refresh after a join": "refresh_after_join", "old refresh after a join": "old_refresh_after_join"}
        out = {"metric": args.metric, "samples": 1000, **extra}
        for name, key in keys.items():
            if name in medians:
                out[f"{key}_wall_s"], out[f"{key}_cpu_s"] = (round(v, 4) for v in medians[name])
        out["same_groups_as_old"] = None if args.skip_old else True  # the bench asserts it when it ran the old path
        print(json.dumps(out))


def timed(action) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def old_groups(phase, rows, resamplings: dict | None = None):
    """The former path: statistics read and parsed for every row not in ``resamplings``
    (the former per-process cache), then each pair's paired bootstrap."""
    from leaderboard.insights.board import metric_statistics
    from leaderboard.insights.ties import ALPHA
    from scoring import resampling
    from scoring.bootstrap import paired_bootstrap_of

    options = phase.scoring_options()
    kept = dict(resamplings or {})
    missing = [r["submission_id"] for r in rows if r["submission_id"] not in kept]
    kept.update({sid: resampling(PATH, stats, options) for sid, stats in metric_statistics(missing, "errant").items()})
    groups, above, group = {}, None, 0
    for row in rows:
        current = kept[row["submission_id"]]
        if above is None:
            group += 1
            groups[row["submission_id"]] = {"group": group, "p_value": None, "delta": None}
        else:
            test = paired_bootstrap_of(above, current, PATH)
            group += test.p_value < ALPHA
            groups[row["submission_id"]] = {"group": group, "p_value": test.p_value, "delta": test.delta}
        above = current
    return groups, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--metric", default=PATH, help="the path the board ranks by (errant.cs.f or gotoscorer.*)")
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    parser.add_argument("--skip-old", action="store_true", help="GoToScorer: time the new refresh only")
    args = parser.parse_args()
    if args.metric.startswith("gotoscorer."):
        pool_main(args)
        return
    if args.metric != PATH:
        parser.error(f"--metric: {PATH} or a GoToScorer path (gotoscorer.f, ...)")
    fresh_database(DB_NAME, GEC_POOL="all")
    from leaderboard.insights.board import compute_tie_groups
    from leaderboard.models import SampledScores
    from leaderboard.services.boards.sampled import keep_board_vectors

    def refresh(rows):  # the worker's step: keep what is missing, then rank
        keep_board_vectors(phase, rows, PATH)
        return compute_tie_groups(phase, rows, PATH)

    start = time.perf_counter()
    phase, rows, newcomer = seed(args.rows, np.random.default_rng(2014))
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT avg(length(statistics::text)) FROM leaderboard_metricresult WHERE metric = 'errant'")
        size = cursor.fetchone()[0]
    print(
        f"seeded {len(rows)} rows + 1 newcomer in {time.perf_counter() - start:.1f} s; ERRANT statistics "
        f"{size / 1024:.0f} KB of JSON a row"
    )
    grown = sorted([*rows, newcomer], key=lambda r: -r["value"])
    figures: dict[str, list[tuple[float, float]]] = {}

    def record(name, wall, cpu):
        figures.setdefault(name, []).append((wall, cpu))

    for _ in range(args.repeat):
        wall, cpu, (old, kept) = timed(lambda: old_groups(phase, rows))
        record("old, cold", wall, cpu)
        wall, cpu, (old_grown, _) = timed(lambda kept=kept: old_groups(phase, grown, kept))
        record("old, one new score (warm process)", wall, cpu)
        SampledScores.objects.all().delete()
        wall, cpu, new = timed(lambda: refresh(rows))
        record("new, cold (nothing kept)", wall, cpu)
        wall, cpu, again = timed(lambda: refresh(rows))
        record("new, warm (all kept)", wall, cpu)
        wall, cpu, new_grown = timed(lambda: refresh(grown))
        record("new, one new score", wall, cpu)
        SampledScores.objects.filter(submission_id=newcomer["submission_id"]).delete()
        assert old == new == again and old_grown == new_grown, "old and new groups differ"
    for name, runs in figures.items():
        print(
            f"{name:38s} wall {statistics.median(w for w, _ in runs):6.3f} s   cpu "
            f"{statistics.median(c for _, c in runs):6.3f} s"
        )
    kept_bytes = sum(len(v) for v in SampledScores.objects.values_list("values", flat=True))
    print(
        f"groups identical; {SampledScores.objects.count()} vectors kept, {kept_bytes / 1024:.0f} KB; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
