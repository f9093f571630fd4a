"""Time and peak memory of scoring the issue-14 adversarial files with every metric.

Each case runs in a fresh process (its own peak RSS) against the SEEDA subset (391
sentences, REF0/REF1), prepared once beforehand and not timed:

- ``wide``: 391 lines at the per-line token limit: refused by the per-file token limit;
- ``wide-at-limit``: as many lines at the per-line limit as the per-file limit admits,
  the rest of the lines the source's own: scored (the worst single lines, metric by
  metric: ``bench/worst_lines.py``);
- ``long-words``: one 1,000-token line of 40-character words: scored;
- ``m2-bomb``: an M2 output whose one ``A`` line inserts 100,000 tokens: refused;
- ``long-chunk``: an M2 output inserting a 900-token chunk (CLEME's weight overflowed): scored.

Before the limits and the bounded merger: ``wide`` and ``long-words`` used a
worker's whole 900 s, ``m2-bomb`` reached 10 GB, ``long-chunk`` failed.

    python bench/adversarial_inputs.py [--case NAME]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import DEFAULT_LIMITS, Dataset, InputError, read_hypothesis, score_systems  # noqa: E402

SEEDA = ROOT.parent / "shared" / "data" / "seeda"
SOURCE = SEEDA / "seeda" / "outputs" / "subset" / "INPUT.txt"
REFS = [SEEDA / "derived" / "subset" / "REF0.txt", SEEDA / "derived" / "subset" / "REF1.txt"]
CASES = ("wide", "wide-at-limit", "long-words", "m2-bomb", "long-chunk")


def adversarial_file(case: str, sources: list[str]) -> tuple[str, bytes]:
    """(file name, content) of one case; seeded, so every run scores the same bytes."""
    rng = random.Random(14)
    vocabulary = [w for line in sources for w in line.split()]
    wide_line = lambda: " ".join(rng.choice(vocabulary) for _ in range(DEFAULT_LIMITS.line_tokens))  # noqa: E731
    if case == "wide":
        return "wide.txt", "".join(wide_line() + "\n" for _ in sources).encode()
    if case == "wide-at-limit":
        n_wide = DEFAULT_LIMITS.file_tokens // DEFAULT_LIMITS.line_tokens - 10  # the source's lines take the rest
        return "wide.txt", "".join(
            (wide_line() if i < n_wide else line) + "\n" for i, line in enumerate(sources)
        ).encode()
    if case == "long-words":
        line = " ".join("".join(rng.choice("abcdefghij") for _ in range(40)) for _ in range(1000))
        return "long.txt", "".join((line if i == 0 else s) + "\n" for i, s in enumerate(sources)).encode()
    insertion = 100_000 if case == "m2-bomb" else 900
    blocks = [f"S {s}\n" for s in sources]
    blocks[0] += f"A 0 0|||M:OTHER|||{' '.join(['word'] * insertion)}|||REQUIRED|||-NONE-|||0\n"
    return "hyp.m2", "\n".join(blocks).encode()


def run_case(case: str, dataset_path: Path) -> None:
    """In the child: score one case and print one result line."""
    dataset = Dataset.load(dataset_path)
    name, content = adversarial_file(case, [" ".join(s) for s in dataset.sources])
    started = time.perf_counter()
    try:
        result = score_systems(dataset, [read_hypothesis(dataset, content, case, filename=name)])
        outcome = f"scored, ERRANT F {result.systems[case]['errant']['cs']['f']:.4f}"
    except InputError as error:
        outcome = f"refused: {error.problems[0]}"
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{case:14} {len(content) / 1e6:6.2f} MB  {seconds:7.1f} s  peak RSS {peak_mb:6.0f} MB  {outcome}", flush=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=CASES, action="append", help="one case (repeat); default all")
    parser.add_argument("--dataset", type=Path, help=argparse.SUPPRESS)  # the child's prepared dataset
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_case(args.case[0], args.dataset)
        return
    with tempfile.TemporaryDirectory() as tmp:
        dataset_path = Path(tmp) / "seeda.dataset"
        started = time.perf_counter()
        Dataset.from_files(source=SOURCE, refs=REFS).save(dataset_path)
        print(
            f"SEEDA subset prepared in {time.perf_counter() - started:.1f} s (not counted); all metrics, "
            f"default limits {DEFAULT_LIMITS}",
            flush=True,
        )
        for case in args.case or CASES:
            subprocess.run(
                [sys.executable, __file__, "--child", "--case", case, "--dataset", str(dataset_path)], check=True
            )


if __name__ == "__main__":
    main()
