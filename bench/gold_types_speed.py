"""What re-typing M2 gold with ERRANT's classifier costs, on the bundled CoNLL-2014 gold.

CoNLL-2014's gold carries NUCLE types; the ERRANT per-type table counts gold edits under
ERRANT's types instead (:mod:`scoring.metrics.gold_types`), which needs a parse of each corrected
gold sentence once per dataset (then kept with the prepared dataset). Prints, in CPU
seconds (``time.process_time``; the least of 3 rounds): the re-typing of both annotators'
edits on all 1,312 sentences, and ERRANT's statistics and scores of one simulated system
(the demo's "Eager") with the re-typed gold (the work every upload pays), and the same
with the gold's types as given, for comparison.

    python bench/gold_types_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leaderboard import demo  # noqa: E402  (plain Python: no Django needed)
from scoring import Dataset, ScoringOptions, hypothesis_from_lines, read_m2  # noqa: E402
from scoring.metrics.errant import Errant  # noqa: E402
from scoring.metrics.gold_types import classify_gold  # noqa: E402

ROUNDS = 3


def cpu(fn):
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def main() -> None:
    corpus = read_m2(demo.GOLD)
    dataset = Dataset.from_m2(corpus)
    dataset.source_parses(range(len(dataset)))  # the sources first: a prepared dataset has them parsed already
    edits = sum(1 for r in dataset.references for e in r.edits if e for x in e if x.type != "noop")
    retype = []
    for _ in range(ROUNDS):
        dataset.lines._docs.clear()  # parse the corrected gold lines again each round
        seconds, types = cpu(lambda: classify_gold(dataset))
        retype.append(seconds)
    dataset.tables["errant.gold_types"] = types
    hypothesis = hypothesis_from_lines(dataset, demo.simulate(corpus, demo.SYSTEMS[2]).splitlines(), "Eager")
    metric = Errant(ScoringOptions())
    scoring = [cpu(lambda: metric.score(metric.statistics(dataset, hypothesis)))[0] for _ in range(ROUNDS)]
    dataset.tables["errant.gold_types"] = None  # the gold's types as given, as before
    dataset.memo.clear()
    as_given = [cpu(lambda: metric.score(metric.statistics(dataset, hypothesis)))[0] for _ in range(ROUNDS)]
    print(
        f"re-typing {edits} gold edits of {len(dataset)} sentences (2 annotators), once per dataset: "
        f"{min(retype):.2f} s"
    )
    print(f"ERRANT statistics + scores of one system, re-typed gold (+ annotator table): {min(scoring):.3f} s")
    print(f"ERRANT statistics + scores of one system, gold types as given:              {min(as_given):.3f} s")


if __name__ == "__main__":
    main()
