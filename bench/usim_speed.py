"""How many sentences per second does USIM score, given the parses? Target: >= 300.

On the full 1,312-sentence SEEDA set and one system (BART unless named), the spaCy
parses are made first and not timed (the scoring core makes them anyway: the dataset's
source parses once, the system's changed lines during annotation). Then it times
(a) building the source graphs (``prepare``, once per dataset), (b) one system's
statistics given those, and prints sentences per second for (b) and for (a)+(b).
The best of a few repeats is reported, since the machine is shared.

    python bench/usim_speed.py [SYSTEM]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import Dataset, ScoringOptions, hypothesis_from_lines, read_text  # noqa: E402
from scoring.metrics.usim import Usim  # noqa: E402

OUTPUTS = ROOT.parent / "shared" / "data" / "seeda" / "seeda" / "outputs" / "all"
REPEATS = 3


def best_time(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(system: str = "BART") -> None:
    sources = [line.split() for line in read_text(OUTPUTS / "INPUT.txt")]
    dataset = Dataset(sources, [])  # USIM reads no reference
    start = time.perf_counter()
    hypothesis = hypothesis_from_lines(dataset, read_text(OUTPUTS / f"{system}.txt"), system)
    hypothesis.parses(dataset)
    print(f"parsing and annotating (not timed below): {time.perf_counter() - start:.1f} s")

    metric = Usim(ScoringOptions())
    n = len(dataset)
    changed = sum(t != s for t, s in zip(hypothesis.tokens, dataset.sources))
    prepare = best_time(lambda: metric.prepare(dataset))
    statistics = best_time(lambda: metric.statistics(dataset, hypothesis))
    print(f"{n} sentences, {system} ({changed} changed), best of {REPEATS}")
    print(f"(a) source graphs (once per dataset): {prepare:.3f} s")
    print(f"(b) one system's statistics:          {statistics:.3f} s = {n / statistics:.0f} sentences/s")
    print(
        f"(a)+(b):                              {prepare + statistics:.3f} s = "
        f"{n / (prepare + statistics):.0f} sentences/s"
    )
    print(f"USIM f = {metric.score(metric.statistics(dataset, hypothesis))['f']:.4f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
