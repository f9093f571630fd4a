"""Similarity-weighted scoring in a cold worker that loads the task's prepared dataset.

A worker process starts, loads the prepared dataset's bytes (as the platform stores
them) and scores one system with ERRANT, GoToScorer, CLEME and CLEME2.0 with similarity
weights: CoNLL-14 (1,312 sentences, the CLEME data's M2 gold, two annotators, no
parsing) and POST, the system that embeds the most new X'. The dataset is prepared
beforehand as the platform does (with the metrics' once-per-dataset tables, where the
code under test stores them). Prints the worker's CPU seconds (stable under load) and peak RSS;
``--root DIR`` runs another checkout's code, for before/after figures.

    python bench/sim_cold.py [--system POST] [--root DIR]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLEME_DATA = ROOT.parent / "shared" / "data" / "cleme"
METRICS = ["errant", "gotoscorer", "cleme", "cleme2"]

PREPARE = """
import sys
from scoring import Dataset, ScoringOptions, build_metrics
dataset = Dataset.from_files(m2=sys.argv[1])
for metric in build_metrics(sys.argv[3].split(","), ScoringOptions(sim=True)):
    metric.prepare(dataset)
dataset.save(sys.argv[2])
"""

WORKER = """
import sys
from scoring import Dataset, ScoringOptions, read_hypothesis, score_systems
dataset = Dataset.load(sys.argv[1])
hypothesis = read_hypothesis(dataset, sys.argv[2], "system")
score_systems(dataset, [hypothesis], sys.argv[3].split(","), ScoringOptions(sim=True))
import resource
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cpu(code: str, args: list[str], root: Path) -> tuple[float, str]:
    """The child's CPU seconds, and what it printed last (the worker: its peak RSS in MB)."""
    before = children_cpu()
    out = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    return children_cpu() - before, (out.split() or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", default="POST")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    root = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "conll14.dataset"
        prepare, _ = run_cpu(PREPARE, [str(CLEME_DATA / "conll14.errant"), str(prepared), ",".join(METRICS)], root)
        cold, peak = run_cpu(
            WORKER, [str(prepared), str(CLEME_DATA / f"conll14-{args.system}.errant"), ",".join(METRICS)], root
        )
    print(f"code under test: {root}; CPU seconds (stable under load)")
    print(f"prepare the dataset once (the platform, at task creation or first worker)  {prepare:8.2f} s")
    print(
        f"cold worker: load the prepared dataset, score {args.system} with {','.join(METRICS)} + sim  "
        f"{cold:8.2f} s, peak RSS {peak} MB"
    )


if __name__ == "__main__":
    main()
