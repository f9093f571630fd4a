"""The scoring core's cost against spaCy's parse, on the full CoNLL-2014 / SEEDA set.

All figures are CPU seconds (this process's for in-process steps, the children's from
``getrusage`` for subprocesses), which stay stable on a loaded machine. Prints:

(a) a cold ``python -m scoring`` with ERRANT, GoToScorer, CLEME and CLEME2.0 for one
    system (source, REF0, REF1, the system), against a cold process that only loads
    spaCy and parses the source, both references and the system's lines: a/b
    (<= 1.0);
(c) a second system of the same task in a warm process (the first system scored just
    before), against spaCy parsing that system's changed lines: c/d (<= 1.1);
(e) all 15 SEEDA systems (INPUT included) in one ``python -m scoring`` run.

``--root DIR`` runs the subprocesses from another checkout (the code before a change),
for before/after figures; (c)/(d) always use this checkout.

    python bench/cli_speed.py [--system BART] [--second T5] [--root DIR] [--skip-15]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDA = ROOT.parent / "shared" / "data" / "seeda"
OUTPUTS = SEEDA / "seeda" / "outputs" / "all"
REFS = [SEEDA / "derived" / "full" / "REF0.txt", SEEDA / "derived" / "full" / "REF1.txt"]
METRICS = "errant,gotoscorer,cleme,cleme2"
SYSTEMS = sorted(p.stem for p in OUTPUTS.glob("*.txt"))  # with INPUT, as the SEEDA golden files

PARSE_ONLY = """
import sys
from scoring.nlp import parse_tokens
for path in sys.argv[1:]:
    parse_tokens([line.split() for line in open(path, encoding="utf-8").read().splitlines()])
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cpu(command: list[str], cwd: Path) -> float:
    """CPU seconds of one subprocess (it and its children)."""
    before = children_cpu()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return children_cpu() - before


def cli(root: Path, systems: list[str]) -> list[str]:
    hyps = [f"--hyp={name}={OUTPUTS / f'{name}.txt'}" for name in systems]
    return [
        sys.executable,
        "-m",
        "scoring",
        "--source",
        str(OUTPUTS / "INPUT.txt"),
        *[f"--ref={r}" for r in REFS],
        *hyps,
        "--metrics",
        METRICS,
    ]


def cpu_of(action) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def warm_second_system(first: str, second: str) -> tuple[float, float]:
    """(c) scoring ``second`` after ``first`` in one process, (d) spaCy on its changed lines."""
    sys.path.insert(0, str(ROOT))
    from scoring import Dataset, read_hypothesis, score_systems
    from scoring.nlp import parse_tokens

    dataset = Dataset.from_files(source=OUTPUTS / "INPUT.txt", refs=REFS)
    metrics = METRICS.split(",")
    score_systems(dataset, [read_hypothesis(dataset, OUTPUTS / f"{first}.txt", first)], metrics)
    scored = cpu_of(
        lambda: score_systems(dataset, [read_hypothesis(dataset, OUTPUTS / f"{second}.txt", second)], metrics)
    )
    lines = [line.split() for line in (OUTPUTS / f"{second}.txt").read_text(encoding="utf-8").splitlines()]
    changed = [tokens for tokens, source in zip(lines, dataset.sources) if tokens != source]
    parsed = cpu_of(lambda: parse_tokens(changed))
    return scored, parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", default="BART")
    parser.add_argument("--second", default="T5")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose code the subprocesses run")
    parser.add_argument("--skip-15", action="store_true")
    args = parser.parse_args()
    root = args.root.resolve()
    print(f"code under test: {root}; CPU seconds (stable under load)")
    cold = run_cpu(cli(root, [args.system]), root)
    files = [OUTPUTS / "INPUT.txt", *REFS, OUTPUTS / f"{args.system}.txt"]
    parse = run_cpu([sys.executable, "-c", PARSE_ONLY, *map(str, files)], ROOT)
    print(f"(a) cold CLI, {METRICS}, {args.system}          {cold:8.2f} s")
    print(f"(b) cold spaCy parse of source + 2 refs + system {parse:8.2f} s")
    print(f"    a/b                                          {cold / parse:8.2f}   (target <= 1.0)")
    if root == ROOT:
        scored, parsed = warm_second_system(args.system, args.second)
        print(f"(c) warm: {args.second} scored after {args.system}            {scored:8.2f} s")
        print(f"(d) spaCy parse of {args.second}'s changed lines        {parsed:8.2f} s")
        print(f"    c/d                                          {scored / parsed:8.2f}   (target <= 1.1)")
    if not args.skip_15:
        every = run_cpu(cli(root, SYSTEMS), root)
        print(f"(e) all {len(SYSTEMS)} systems in one CLI run            {every:8.2f} s")


if __name__ == "__main__":
    main()
