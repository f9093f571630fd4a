"""How many of each demo corpus's edits are typed OTHER, per language.

Every corpus of the multilingual demo (``leaderboard/demo_data/multigec``) is annotated
with its language's default pipeline (``lemmas``: simplemma lemmas and the language's
offline UPOS tagger): the references' edits against the source, and each simulated
system's. The share of edits whose class is OTHER (``M:OTHER``, ``R:OTHER``,
``U:OTHER``; UNK and noop left out) is printed per corpus: of the references' edits, of
all the systems' edits, and of the systems' true positives as the per-type table
(ERRANT ``cs``, cat 2) counts them, the worst system's; with the CPU seconds the
annotation took. The goal is at most 30% everywhere; the figures are recorded in
docs/languages.md.

    python bench/other_share.py [--pipeline tokens|lemmas] [--types]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import Dataset, ScoringOptions, hypothesis_from_lines, pipeline_signature, score_systems  # noqa: E402
from scoring.errant.edits import NOOP, UNK  # noqa: E402

DEMO = ROOT / "leaderboard" / "demo_data" / "multigec"
GOAL = 0.30


def corpus_types(folder: Path, pipeline: str | None) -> tuple[str, Counter, Counter, Counter, float]:
    """The corpus's language, its references' and systems' edit classes, the true
    positives' classes of the system with the most OTHER among them, and the CPU seconds
    of the annotation."""
    lang = json.loads((folder / "corpus.json").read_text(encoding="utf-8"))["language"]
    lines = lambda path: path.read_text(encoding="utf-8").splitlines()  # noqa: E731
    refs = sorted(folder.glob("ref*.txt"))
    systems = sorted((folder / "systems").glob("*.txt"))
    started = time.process_time()
    dataset = Dataset.from_text(
        lines(folder / "source.txt"),
        [lines(p) for p in refs + systems],
        names=[p.stem for p in refs + systems],
        lang=lang,
        pipeline=pipeline,
    )
    seconds = time.process_time() - started
    references, outputs = Counter(), Counter()
    for k, reference in enumerate(dataset.references):
        counter = references if k < len(refs) else outputs
        for edits in reference.edits:
            counter.update(e.type.split(":", 1)[1] for e in edits or () if e.type not in (NOOP, UNK))
    scored = Dataset.from_text(lines(folder / "source.txt"), [lines(p) for p in refs], lang=lang, pipeline=pipeline)
    hypotheses = [hypothesis_from_lines(scored, lines(p), p.stem) for p in systems]
    tables = score_systems(scored, hypotheses, ["errant"], ScoringOptions()).systems
    true_positives = [
        Counter({name: row["tp"] for name, row in tables[p.stem]["errant"]["per_type"]["2"].items() if name != UNK})
        for p in systems
    ]
    return lang, references, outputs, max(true_positives, key=share), seconds


def share(counter: Counter) -> float:
    return counter["OTHER"] / max(1, sum(counter.values()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipeline", default=None, help="default: each language's richest")
    parser.add_argument("--types", action="store_true", help="also print every class's count")
    args = parser.parse_args()
    print(
        f"{'corpus':<11} {'lang':<4} {'references OTHER':>22} {'systems OTHER':>22} {'TP OTHER (worst)':>20} "
        f"{'CPU s':>6}"
    )
    worst = 0.0
    for folder in sorted(p for p in DEMO.iterdir() if (p / "corpus.json").exists()):
        lang, references, outputs, true_positives, seconds = corpus_types(folder, args.pipeline)
        worst = max(worst, share(references), share(outputs), share(true_positives))
        cell = lambda c: f"{c['OTHER']}/{sum(c.values())} = {share(c):.1%}"  # noqa: E731
        print(
            f"{folder.name:<11} {lang:<4} {cell(references):>22} {cell(outputs):>22} "
            f"{cell(true_positives):>20} {seconds:>6.1f}"
        )
        print(f"    {pipeline_signature(lang, args.pipeline)}")
        if args.types:
            print("    references:", ", ".join(f"{k} {v}" for k, v in references.most_common()))
            print("    systems:   ", ", ".join(f"{k} {v}" for k, v in outputs.most_common()))
    print(f"largest OTHER share {worst:.1%} (goal at most {GOAL:.0%}): {'met' if worst <= GOAL else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
