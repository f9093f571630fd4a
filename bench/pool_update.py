"""Time a GoToScorer pool join and leave (all members' scores refreshed) against a rebuild.

Chunk set: the gold chunks of the full 1,312-sentence SEEDA / CoNLL-2014 test set,
reference 0 of ``derived/full/ref_par.m2``. Members are synthetic outcome vectors with
success rates like the 15 real SEEDA systems': each system gets right 20-40 % of the gold
edits, wrongly changes 7-50 % of those it misses, and wrongly changes 1-9 % of the
chunks that need no change. For N = 10, 100, 1000 it prints the median time of

* join:  ``Pool.add`` of one more system, then every member's scores;
* leave: ``Pool.remove`` of that system, then every member's scores;
* rebuild: ``Pool.of`` from scratch (n summed, every member's sums), then every score;
* fresh: ``pool_scores``, the plain from-scratch computation the pool must equal,

and checks once per N that the updated pool equals the fresh computation exactly.

    python bench/pool_update.py [--repeat 5] [--sizes 10,100,1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.gotoscorer import Outcomes, Pool, corpus_chunks, flatten, pool_scores
from scoring.readers import read_m2

REF_M2 = Path(__file__).resolve().parents[2] / "shared" / "data" / "seeda" / "derived" / "full" / "ref_par.m2"


def gold_modified_flags() -> np.ndarray:
    corpus = read_m2(REF_M2)
    chunks = flatten(corpus_chunks(corpus.sources, [block.get(0) for block in corpus.annotations]))
    return np.array([chunk.modified for chunk in chunks])


def synthetic_system(gold: np.ndarray, rng: np.random.Generator) -> Outcomes:
    """Outcome bits with a random system's recall and over-correction rates."""
    hit, wrong_change, over_correction = rng.uniform(0.2, 0.4), rng.uniform(0.07, 0.5), rng.uniform(0.01, 0.09)
    draws = rng.random(len(gold))
    extra = rng.random(len(gold))
    correct = np.where(gold, draws < hit, draws >= over_correction)
    modified = np.where(gold, correct | (extra < wrong_change), ~correct)
    return Outcomes(modified, correct)


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def bench(gold: np.ndarray, size: int, repeat: int, rng: np.random.Generator) -> dict:
    members = {f"sys{k}": synthetic_system(gold, rng) for k in range(size)}
    newcomer = synthetic_system(gold, rng)
    pool = Pool.of(gold, members)
    joins, leaves = [], []
    for _ in range(repeat):
        joins.append(timed(lambda: (pool.add("newcomer", newcomer), pool.all_scores())))
        leaves.append(timed(lambda: (pool.remove("newcomer"), pool.all_scores())))
    pool.add("newcomer", newcomer)
    final = {**members, "newcomer": newcomer}
    exact = pool.all_scores() == pool_scores(gold, final)
    rebuild = statistics.median(timed(lambda: Pool.of(gold, final).all_scores()) for _ in range(max(1, repeat // 2)))
    fresh = statistics.median(timed(lambda: pool_scores(gold, final)) for _ in range(max(1, repeat // 2)))
    return {
        "N": size,
        "join": statistics.median(joins),
        "leave": statistics.median(leaves),
        "rebuild": rebuild,
        "fresh": fresh,
        "exact": exact,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="10,100,1000")
    args = parser.parse_args()
    gold = gold_modified_flags()
    rng = np.random.default_rng(2020)
    print(
        f"gold chunks: {len(gold)} ({int(gold.sum())} gold edits), full SEEDA set, reference 0; median of {args.repeat}"
    )
    print(f"{'N':>6} {'join s':>10} {'leave s':>10} {'rebuild s':>10} {'fresh s':>10}  exact")
    for size in (int(s) for s in args.sizes.split(",")):
        row = bench(gold, size, args.repeat, rng)
        print(
            f"{row['N']:>6} {row['join']:>10.4f} {row['leave']:>10.4f} {row['rebuild']:>10.4f} "
            f"{row['fresh']:>10.4f}  {row['exact']}"
        )


if __name__ == "__main__":
    main()
