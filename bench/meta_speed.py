"""How long does the full meta-evaluation table take with 1,000 bootstrap samples? Target: < 30 s.

On the 391-sentence SEEDA subset with its 15 systems, every registered metric's
statistics are computed first (not timed: the platform has them stored). Then it times
``meta_evaluate``: every metric's headline paths against the four human schemes over
SEEDA's four system sets, pairwise accuracy and tau against both ranking files, 1,000
resamples, window analysis. It prints wall-clock and CPU time (the machine is shared:
CPU time is what the table itself costs), best of a few repeats.

    python bench/meta_speed.py [SAMPLES]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import (  # noqa: E402
    Dataset,
    ScoringOptions,
    build_metrics,
    metric_names,
    read_hypothesis,
    system_statistics,
)
from scoring.meta import (  # noqa: E402
    SEEDA_SYSTEM_SETS,
    HumanJudgments,
    meta_evaluate,
    read_human_scores,
    read_judgments,
)

SEEDA = ROOT.parent / "shared" / "data" / "seeda"
OUTPUTS = SEEDA / "seeda" / "outputs" / "subset"
REPEATS = 3


def main(samples: str = "1000") -> None:
    start = time.perf_counter()
    dataset = Dataset.from_files(
        source=OUTPUTS / "INPUT.txt", refs=[SEEDA / "derived" / "subset" / f"REF{k}.txt" for k in (0, 1)]
    )
    names = sorted(p.stem for p in OUTPUTS.glob("*.txt"))
    metrics = build_metrics(metric_names(), ScoringOptions())  # the language-model ones need a model
    for metric in metrics:
        metric.prepare(dataset)
    statistics = {
        name: system_statistics(dataset, read_hypothesis(dataset, OUTPUTS / f"{name}.txt", name), metrics)
        for name in names
    }
    print(
        f"statistics of {len(names)} systems x {len(dataset)} sentences, {', '.join(metric_names())} (not timed "
        f"below): {time.perf_counter() - start:.1f} s"
    )
    human = HumanJudgments(
        schemes={
            s: read_human_scores(SEEDA / "seeda" / "scores" / "human" / f"{s}.txt", names)
            for s in ("EW_edit", "EW_sent", "TS_edit", "TS_sent")
        },
        rankings={k: read_judgments(SEEDA / "seeda" / "data" / f"judgments_{k}.xml") for k in ("sent", "edit")},
        line_ids=[int(x) for x in (SEEDA / "seeda" / "subset_line_ids.txt").read_text().split()],
        system_sets=dict(SEEDA_SYSTEM_SETS),
    )
    walls, cpus = [], []
    for _ in range(REPEATS):
        wall, cpu = time.perf_counter(), time.process_time()
        table = meta_evaluate(statistics, metrics, human, samples=int(samples), seed=12345)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    paths = len(table["system"])
    print(
        f"meta-evaluation, {samples} samples, {paths} score paths x 4 schemes x {len(SEEDA_SYSTEM_SETS)} sets "
        f"+ 2 ranking files, best of {REPEATS}:"
    )
    print(f"  wall {min(walls):.2f} s, CPU {min(cpus):.2f} s (target < 30 s)")
    for path, schemes in table["system"].items():
        entry = schemes["TS_sent"]
        print(
            f"  {path:34} TS_sent base: pearson {entry['pearson']:+.3f} [{entry['pearson_ci'][0]:+.3f}, "
            f"{entry['pearson_ci'][1]:+.3f}]"
        )
    print(table["signature"])


if __name__ == "__main__":
    main(*sys.argv[1:])
