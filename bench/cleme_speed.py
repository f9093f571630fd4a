"""CLEME and CLEME2.0 speed on the 13 CoNLL-14 systems (1,312 sentences, 2 references).

Prints sentences per second per system for plain CLEME and CLEME2.0 (statistics +
scores, the dataset already read) and for similarity-weighted CLEME2.0 (after the
once-per-dataset preparation, whose time is printed separately). Similarity weighting
is timed cold (each system as if first in a fresh worker: nothing learned from the
others) and then pooled (systems one after another, as one worker scores a task's
submissions, each reusing the X' the earlier ones embedded).
Targets: plain >= 2,000 sentences/s per system; similarity >= 150 sentences/s.

    python bench/cleme_speed.py [--no-sim] [--sim-systems AMU,CAMB]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.cleme.similarity_weights import dataset_similarity
from scoring.metrics.cleme import Cleme
from scoring.metrics.cleme2 import Cleme2

CLEME_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "cleme"
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "IPN", "NTHU", "PKU", "POST", "RAC", "SJTU", "UFC", "UMC"]


def timed(metric, dataset, hypothesis) -> float:
    start = time.perf_counter()
    metric.score(metric.statistics(dataset, hypothesis))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-sim", action="store_true", help="skip similarity weighting")
    parser.add_argument("--sim-systems", default=",".join(SYSTEMS), help="systems to time with similarity weighting")
    args = parser.parse_args()

    dataset = Dataset.from_files(m2=CLEME_DATA / "conll14.errant")
    n = len(dataset)
    hypotheses = {name: read_hypothesis(dataset, CLEME_DATA / f"conll14-{name}.errant", name) for name in SYSTEMS}
    cleme, cleme2 = Cleme(ScoringOptions()), Cleme2(ScoringOptions())
    print(f"{'system':8} {'CLEME sent/s':>14} {'CLEME2.0 sent/s':>16}")
    worst = float("inf")
    for name, hyp in hypotheses.items():
        a, b = n / timed(cleme, dataset, hyp), n / timed(cleme2, dataset, hyp)
        worst = min(worst, a, b)
        print(f"{name:8} {a:14,.0f} {b:16,.0f}")
    print(f"plain: slowest {worst:,.0f} sentences/s (target >= 2,000)")
    if args.no_sim:
        return

    options = ScoringOptions(sim=True)
    sim = Cleme2(options)
    start = time.perf_counter()
    sim.prepare(dataset)
    cache = dataset_similarity(dataset, options.bertscore_model, options.bertscore_layers)
    print(
        f"similarity ({cache.similarity.encoder.name} engine): dataset preparation (model load, references, "
        "F1(source, ref), "
        f"reference-chunk X') {time.perf_counter() - start:.1f} s"
    )
    names = args.sim_systems.split(",")
    for mode in ("cold", "pooled"):
        cache.forget()
        times = {}
        for name in names:
            if mode == "cold":
                cache.forget()
            times[name] = timed(sim, dataset, hypotheses[name])
        per_system = "  ".join(f"{name} {n / seconds:,.0f}" for name, seconds in times.items())
        slowest = max(times, key=times.get)
        print(f"similarity {mode:6}: {per_system}")
        print(
            f"similarity {mode:6}: {n * len(names) / sum(times.values()):,.1f} sentences/s over {len(names)} systems, "
            f"slowest {slowest} {n / times[slowest]:,.1f} (target >= 150)"
        )


if __name__ == "__main__":
    main()
