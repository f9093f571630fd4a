"""CPU time and peak memory of every metric on the worst lines the input limits admit.

One legal line once took a worker to 6 GB through M2 (a 20-token source line against a
999-token rewrite), and a line may be an essay of up to 5,000 tokens.
Each case is a one-line dataset (a source line and two light corrections of it as
references, prepared once beforehand and not timed) and one output line:

- ``20-vs-999``: a 20-token source line, the output 999 random words;
- ``19-vs-600``: a 19-token source line, the output 600 random words;
- ``1000-heavy``, ``2000-heavy``, ``5000-heavy``: a source line of that many tokens,
  the output rewritten heavily (about half its tokens deleted, replaced, added or swapped);
- ``5000-random``: a 5,000-token source line against 5,000 other random words.

Each metric runs in a fresh process, so its peak RSS is its own (with the interpreter,
spaCy and the dataset, as on a worker). ``read`` is the part every metric shares:
reading the output line, parsing it and aligning it to the source (ERRANT); a metric's
CPU time is its own (prepare, statistics, score), after that.

    python bench/worst_lines.py [--case NAME] [--metric NAME]
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

from scoring import Dataset, ScoringOptions, read_hypothesis, score_systems  # noqa: E402

SEEDA_SOURCE = ROOT.parent / "shared" / "data" / "seeda" / "seeda" / "outputs" / "subset" / "INPUT.txt"
CASES = ("20-vs-999", "19-vs-600", "1000-heavy", "2000-heavy", "5000-heavy", "5000-random")
METRICS = ("errant", "cleme", "cleme2", "cleme2-sim", "gotoscorer", "usim", "gleu", "m2")


def vocabulary() -> list[str]:
    """English words from the SEEDA sources where present, else made-up ones."""
    if SEEDA_SOURCE.exists():
        return sorted({w for line in SEEDA_SOURCE.read_text(encoding="utf-8").split("\n") for w in line.split()})
    rng = random.Random(0)
    return ["".join(rng.choice("etaoinshrdlu") for _ in range(rng.randint(1, 9))) for _ in range(5000)]


def text_line(rng: random.Random, words: list[str], n: int) -> list[str]:
    """``n`` tokens that read like sentences: a full stop every 15 to 25 words."""
    tokens, until_stop = [], rng.randint(15, 25)
    while len(tokens) < n:
        until_stop -= 1
        tokens.append("." if until_stop == 0 else rng.choice(words))
        until_stop = until_stop or rng.randint(15, 25)
    return tokens


def rewritten(rng: random.Random, words: list[str], tokens: list[str], changed: float) -> list[str]:
    """``tokens`` with about ``changed`` of them deleted, replaced, added to or swapped."""
    out = []
    for token in tokens:
        r = rng.random() / changed
        if r < 0.3:
            continue
        if r < 0.65:
            out.append(rng.choice(words))
        elif r < 0.85:
            out += [token, rng.choice(words)]
        elif r < 1.0 and out:
            out.insert(len(out) - 1, token)
        else:
            out.append(token)
    return out


def case_lines(case: str) -> tuple[str, list[str], str]:
    """(source line, reference lines, output line) of one case; seeded."""
    rng = random.Random(23)
    words = vocabulary()
    if case.endswith("-heavy") or case == "5000-random":
        source = text_line(rng, words, int(case.split("-")[0]))
        output = rewritten(rng, words, source, 0.5) if case.endswith("-heavy") else text_line(rng, words, len(source))
    else:
        source_tokens, output_tokens = (int(x) for x in case.split("-vs-"))
        source, output = text_line(rng, words, source_tokens), [rng.choice(words) for _ in range(output_tokens)]
    references = [" ".join(rewritten(rng, words, source, 0.1)) for _ in range(2)]
    return " ".join(source), references, " ".join(output)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_metric(case: str, metric: str, dataset_path: Path) -> None:
    """In the child: read the output line, score it with one metric, print one result line."""
    dataset = Dataset.load(dataset_path)
    _, _, output = case_lines(case)
    started = cpu_seconds()
    hypothesis = read_hypothesis(dataset, (output + "\n").encode(), "system")
    read = cpu_seconds() - started
    name, sim = metric.removesuffix("-sim"), metric.endswith("-sim")
    started = cpu_seconds()
    result = score_systems(dataset, [hypothesis], [name], ScoringOptions(sim=sim))
    own = cpu_seconds() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    scores = result.systems["system"][name]
    note = f"capped lines {scores['capped_lines']}" if "capped_lines" in scores else ""
    print(
        f"{case:12} {metric:11} read {read:6.1f} s  metric {own:6.1f} s  peak RSS {peak_mb:6.0f} MB  {note}", flush=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=CASES, action="append", help="one case (repeat); default all")
    parser.add_argument("--metric", choices=METRICS, action="append", help="one metric (repeat); default all")
    parser.add_argument("--dataset", type=Path, help=argparse.SUPPRESS)  # the child's prepared dataset
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_metric(args.case[0], args.metric[0], args.dataset)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.case or CASES:
            source, references, output = case_lines(case)
            dataset_path = Path(tmp) / f"{case}.dataset"
            started = time.perf_counter()
            Dataset.from_text([source], [[r] for r in references]).save(dataset_path)
            print(
                f"{case}: source {len(source.split())} tokens, output {len(output.split())} tokens, "
                f"dataset prepared in {time.perf_counter() - started:.1f} s (not counted)",
                flush=True,
            )
            for metric in args.metric or METRICS:
                command = [
                    sys.executable,
                    __file__,
                    "--child",
                    "--case",
                    case,
                    "--metric",
                    metric,
                    "--dataset",
                    str(dataset_path),
                ]
                if subprocess.run(command).returncode != 0:
                    print(f"{case:12} {metric:11} FAILED", flush=True)


if __name__ == "__main__":
    main()
