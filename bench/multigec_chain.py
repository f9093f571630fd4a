"""One MultiGEC-2025 corpus file scored by the library against the chain MultiGEC ran.

UA-GEC's test set (166 essays, one essay per line, two references; the ``ua-gec``
package, CC BY 4.0), tokenized by spaCy's blank Ukrainian tokenizer, and a simulated
system (the first annotator's corrections, every fifth left out). Both sides start
from the same text files, in separate processes, and their CPU seconds (the children's
``getrusage``) are printed with their figures side by side:

- the chain: ERRANT 3.0.2 on a blank pipeline writing the references' and the system's
  M2 files as ``errant_parallel`` does (MultiGEC's fork, ``-lang xx``, never tagged),
  then ``errant_compare`` and the ``gleu`` tool (``-d 4 -f -n 4 -t word``);
- the library: ``python -m scoring --lang uk --pipeline tokens ... --metrics errant,gleu
  --gleu-variant multigec --json``.

Target: the library at least 20 times cheaper, with identical figures. The
library's cold process also prepares the references; the chain's reference M2 file is
made once per corpus, so the per-submission costs are printed too: the chain without
that file, the library scoring against its ``--prepared`` file.

    python bench/multigec_chain.py [--essays N]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.multigec_support import ua_gec_lines  # noqa: E402

BIN = Path(sys.executable).parent
SYSTEM = "most"

# errant_parallel as MultiGEC's fork ran it: a blank pipeline, tokens as given.
PARALLEL = """
import sys
from pathlib import Path
from tests.support.multigec_support import stock_m2
read = lambda path: Path(path).read_text(encoding="utf-8").splitlines()
Path(sys.argv[2]).write_text(stock_m2("uk", read(sys.argv[1]), [read(p) for p in sys.argv[3:]]), encoding="utf-8")
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command: list[str]) -> tuple[str, float]:
    """Stdout and CPU seconds of one subprocess."""
    before = children_cpu()
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return out, children_cpu() - before


def write(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def compare_figures(out: str) -> list[str]:
    """P, R, F0.5 as ``errant_compare`` prints them (4 decimals)."""
    lines = out.strip().splitlines()
    return lines[lines.index(next(line for line in lines if line.startswith("TP"))) + 1].split()[3:6]


def chain(folder: Path, source: str, references: list[str], system: str) -> tuple[dict, dict]:
    cpu = {}
    ref_m2, hyp_m2 = str(folder / "ref.m2"), str(folder / "hyp.m2")
    _, cpu["errant_parallel (references)"] = run([sys.executable, "-c", PARALLEL, source, ref_m2, *references])
    _, cpu["errant_parallel (system)"] = run([sys.executable, "-c", PARALLEL, source, hyp_m2, system])
    compared, cpu["errant_compare"] = run([str(BIN / "errant_compare"), "-hyp", hyp_m2, "-ref", ref_m2])
    gleu, cpu["gleu"] = run(
        [str(BIN / "gleu"), "-s", source, "-r", *references, "-o", system, "-d", "4", "-f", "-n", "4", "-t", "word"]
    )
    p, r, f = compare_figures(compared)
    return {"P": p, "R": r, "F0.5": f, "GLEU": gleu.strip().split("\t")[-1]}, cpu


def library(source: str, references: list[str], system: str, prepared: str | None = None) -> tuple[dict, float]:
    command = [
        sys.executable,
        "-m",
        "scoring",
        "--lang",
        "uk",
        "--pipeline",
        "tokens",
        "--source",
        source,
        *[f"--ref={r}" for r in references],
        f"--hyp=sys={system}",
        "--metrics",
        "errant,gleu",
        "--gleu-variant",
        "multigec",
        "--json",
        "--max-tokens",
        "5000",
    ]
    out, cpu = run(command + (["--prepared", prepared] if prepared else []))
    scores = json.loads(out)["systems"]["sys"]

    def rounded(value: float, places: str) -> str:
        return str(Decimal(str(value)).quantize(Decimal(places), rounding=ROUND_HALF_UP))

    cs = scores["errant"]["cs"]
    # errant_compare prints round(x, 4); the gleu tool round-half-up of the percentage
    figures = {
        "P": str(round(cs["p"], 4)),
        "R": str(round(cs["r"], 4)),
        "F0.5": str(round(cs["f"], 4)),
        "GLEU": rounded(100 * scores["gleu"]["score"], "0.0001"),
    }
    return figures, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--essays", type=int, default=10_000, help="the first N test essays (default: all 166)")
    args = parser.parse_args()
    sources, references, systems = ua_gec_lines("test", args.essays, "essay")
    lengths = sorted(len(line.split()) for line in sources)
    print(
        f"UA-GEC test: {len(sources)} essays, 2 references; source tokens per line: median "
        f"{lengths[len(lengths) // 2]}, max {lengths[-1]}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = write(folder, "source.txt", sources)
        refs = [write(folder, f"ref{k}.txt", lines) for k, lines in enumerate(references)]
        system = write(folder, "system.txt", systems[SYSTEM])
        ours, ours_cpu = library(source, refs, system)
        prepared = str(folder / "prepared.zip")
        _, prepare_cpu = library(
            source, refs, source, prepared
        )  # the references, prepared once (the source as the system: nothing to parse)
        warm, warm_cpu = library(source, refs, system, prepared)
        assert warm == ours
        theirs, their_cpu = chain(folder, source, refs, system)
    print(f"\n{'':8}{'MultiGEC chain':>16}{'library':>12}")
    for key in ("P", "R", "F0.5", "GLEU"):
        print(f"{key:8}{theirs[key]:>16}{ours[key]:>12}{'' if theirs[key] == ours[key] else '   DIFFERENT'}")
    total = sum(their_cpu.values())
    print("\nCPU seconds")
    for step, seconds in their_cpu.items():
        print(f"  chain: {step:30}{seconds:8.2f}")
    print(f"  chain total{'':25}{total:8.2f}")
    print(f"  library (one cold process){'':10}{ours_cpu:8.2f}")
    print(f"  ratio chain / library{'':15}{total / ours_cpu:8.1f}x  (target >= 20)")
    per_submission = total - their_cpu["errant_parallel (references)"]
    print("\nper submission, the references prepared once (chain: their M2 file; library: --prepared FILE)")
    print(f"  chain: errant_parallel (system) + errant_compare + gleu {per_submission:8.2f}")
    print(f"  library: preparing the references once{'':17}{prepare_cpu:8.2f}")
    print(f"  library: one system against the prepared file{'':10}{warm_cpu:8.2f}")
    print(f"  ratio{'':51}{per_submission / warm_cpu:8.1f}x")
    print(f"  figures identical: {'yes' if ours == theirs else 'NO'}")


if __name__ == "__main__":
    main()
