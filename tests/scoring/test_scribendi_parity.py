"""Scribendi equals MultiGEC-2025's own script, essay by essay, on every MultiGEC demo corpus
and on CoNLL-2014, with a tiny causal LM both read from one directory.

The reference is ``scribendi.py`` of github.com/robertostling/scribendi_score (no licence is
stated, so no copy is in this repository). The test finds it at ``GEC_SCRIBENDI_REFERENCE``
(the script, or a checkout holding it), else at ``shared/reference/scribendi_score/`` beside
the checkout; without it, or without fuzzywuzzy and python-Levenshtein (requirements-dev.txt)
to run it, the tests are skipped and say so. The script runs as MultiGEC ran it, in a child
process: ``--no_cuda``, the default batch of 4, ``--verbose`` for its per-essay decisions.

The script's edit distance is a pure-Python table of |source| x |output| cells: UA-GEC's
longest essays (up to 12,000 characters) take it minutes each, so that corpus runs on its
essays of up to :data:`LONGEST_ESSAY` characters (30 of 43); the ratio itself is checked
against the same table on any strings in tests/scoring/test_scribendi.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scoring
from leaderboard.demo import GOLD, SYSTEMS, simulate
from scoring.dataset import Dataset
from scoring.hypothesis import Hypothesis
from scoring.metrics.scribendi import Scribendi
from tests.lm_support import build_causal_lm

ROOT = Path(__file__).resolve().parents[2]
MULTIGEC = ROOT / "leaderboard" / "demo_data" / "multigec"
CORPORA = sorted(p.name for p in MULTIGEC.iterdir() if (p / "source.txt").is_file())
LONGEST_ESSAY = 3000  # characters (module docstring)
REFERENCE_ENV = "GEC_SCRIBENDI_REFERENCE"
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference" / "scribendi_score" / "scribendi.py"


def reference_script() -> Path | None:
    configured = os.environ.get(REFERENCE_ENV, "")
    path = Path(configured) if configured else DEFAULT_REFERENCE
    path = path / "scribendi.py" if path.is_dir() else path
    return path if path.is_file() else None


def reference_missing() -> str | None:
    """Why the reference cannot run here, or None."""
    if reference_script() is None:
        return (
            f"the reference scribendi.py is not here: clone github.com/robertostling/scribendi_score and set "
            f"{REFERENCE_ENV} to it (or put it in {DEFAULT_REFERENCE.parent})"
        )
    check = subprocess.run([sys.executable, "-c", "import fuzzywuzzy, Levenshtein"], capture_output=True)
    if check.returncode:
        return "the reference needs fuzzywuzzy 0.18.0 and python-Levenshtein (requirements-dev.txt)"
    return None


MISSING = reference_missing()
# The reference script is unshipped (its licence is not ours to grant): without it the
# parity runs are skipped, saying where to put it; tests/scoring/test_scribendi.py runs
# everywhere.
pytestmark = [pytest.mark.slow, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]  # unshipped


def conll14_pair() -> tuple[list[str], list[str]]:
    gold = scoring.read_m2(GOLD)
    output = simulate(gold, next(s for s in SYSTEMS if s.name == "Eager")).splitlines()
    return [" ".join(tokens) for tokens in gold.sources], output


def corpus_pair(corpus: str) -> tuple[list[str], list[str]]:
    if corpus == "conll14":
        return conll14_pair()
    folder = MULTIGEC / corpus
    source = (folder / "source.txt").read_text(encoding="utf-8").splitlines()
    output = (folder / "systems" / "eager.txt").read_text(encoding="utf-8").splitlines()
    kept = [(s, o) for s, o in zip(source, output) if max(len(s), len(o)) <= LONGEST_ESSAY]
    return [s for s, _ in kept], [o for _, o in kept]


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    texts = [line for corpus in [*CORPORA, "conll14"] for line in corpus_pair(corpus)[0]]
    return build_causal_lm(tmp_path_factory.mktemp("lm") / "tiny", texts)


def run_reference(model: Path, source: list[str], output: list[str], work: Path) -> tuple[list[int], str, str]:
    """The script's per-essay decisions (0 where it prints none: unchanged), its absolute and normalised figures."""
    (work / "src.tmp").write_text("\n".join(source) + "\n", encoding="utf-8")
    (work / "pred.tmp").write_text("\n".join(output) + "\n", encoding="utf-8")
    command = [sys.executable, str(reference_script()), "--src", "src.tmp", "--pred", "pred.tmp"]
    command += ["--no_cuda", "--model_id", str(model), "--verbose"]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", PYTHONUTF8="1")
    done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    found = [0] * len(source)
    for essay, decision in re.findall(r"Essay ID: (\d+) -> Essay score: (-?1)", done.stdout):
        found[int(essay)] = int(decision)
    absolute, normalised = re.search(r"Absolute: (-?\d+)\s+Normalized: (\S+)", done.stdout).groups()
    return found, absolute, normalised


@pytest.mark.parametrize("corpus", [*CORPORA, "conll14"])
def test_decisions_and_corpus_figure_equal_the_reference(corpus, model, tmp_path, monkeypatch):
    monkeypatch.setenv("GEC_LM_MODEL", str(model))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    source, output = corpus_pair(corpus)
    dataset = Dataset([line.split() for line in source], [], lang="en")
    hypothesis = Hypothesis("eager", [line.split() for line in output], [], lines=output)
    metric = Scribendi(scoring.ScoringOptions())
    statistics = metric.statistics(dataset, hypothesis)
    figures = metric.score(statistics)
    expected, absolute, normalised = run_reference(model, source, output, tmp_path)
    assert statistics["decisions"] == expected
    assert figures["sum"] == int(absolute)
    assert f"{figures['score']:.4g}" == normalised
    assert figures["plus"] and figures["minus"]  # both outcomes met: the comparison means something
