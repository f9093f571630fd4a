"""Scribendi equals MultiGEC-2025's own script, essay by essay, on every MultiGEC demo corpus
and on CoNLL-2014, with a tiny causal LM both read from one directory.

The reference is ``scribendi.py`` of github.com/robertostling/scribendi_score (MIT, by
gotutiyan). We copy no reference code into this repository, so the script itself is not
here: where it is (``GEC_SCRIBENDI_REFERENCE``, the script or a checkout holding it, else
``shared/reference/scribendi_score/`` beside the checkout, with fuzzywuzzy and
python-Levenshtein from requirements-dev.txt) the test runs it, as MultiGEC ran it, in a
child process (``--no_cuda``, the default batch of 4, ``--verbose`` for its per-essay
decisions) and compares. Everywhere else it compares with the script's figures recorded
on the same tiny model (:data:`RECORDED`, made by ``python -m tests.web.test_scribendi_parity``
with the script at hand): the model is built from a fixed seed, and the recording names
its fingerprint, so a model that comes out different (another torch) skips and says so
rather than comparing with figures of other weights. Where the script runs, the recording
must equal its run too, so a stale recording fails.

The script's edit distance is a pure-Python table of |source| x |output| cells: UA-GEC's
longest essays (up to 12,000 characters) take it minutes each, so that corpus runs on its
essays of up to :data:`LONGEST_ESSAY` characters (30 of 43); the ratio itself is checked
against the same table on any strings in tests/scoring/test_scribendi.py.
"""

from __future__ import annotations

import hashlib
import json
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
from tests.support.lm_support import build_causal_lm
from tests.support.needs import missing

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
RECORDED = Path(__file__).parent / "recorded" / "scribendi_reference.json"
pytestmark = pytest.mark.slow


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


def build_model(directory: Path) -> Path:
    texts = [line for corpus in [*CORPORA, "conll14"] for line in corpus_pair(corpus)[0]]
    return build_causal_lm(directory, texts)


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    return build_model(tmp_path_factory.mktemp("lm") / "tiny")


def fingerprint(model: Path) -> str:
    """The weights and the tokenizer the figures are of."""
    digest = hashlib.sha256()
    for name in ("model.safetensors", "tokenizer.json"):
        digest.update((model / name).read_bytes())
    return digest.hexdigest()[:16]


def recorded_figures(model: Path) -> dict:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    if recorded["model"] != fingerprint(model):
        missing(  # on CI a failure: the recording must be of the model CI builds
            f"the tiny model built here ({fingerprint(model)}) is not the one {RECORDED.name} was recorded on "
            f"({recorded['model']}): record again with the reference script ({MISSING or 'it is here'})"
        )
    return recorded["corpora"]


def reference_figures(model: Path, corpus: str, work: Path) -> tuple[list[int], str, str]:
    """The script's figures: its own run where it is here (equal to the recording), else the recording."""
    if MISSING is not None:
        found = recorded_figures(model)[corpus]
        return found["decisions"], found["absolute"], found["normalised"]
    figures = run_reference(model, *corpus_pair(corpus), work)
    if json.loads(RECORDED.read_text(encoding="utf-8"))["model"] == fingerprint(model):
        found = recorded_figures(model)[corpus]
        assert (found["decisions"], found["absolute"], found["normalised"]) == figures, "the recording is stale"
    return figures


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
    expected, absolute, normalised = reference_figures(model, corpus, tmp_path)
    assert statistics["decisions"] == expected
    assert figures["sum"] == int(absolute)
    assert f"{figures['score']:.4g}" == normalised
    assert figures["plus"] and figures["minus"]  # both outcomes met: the comparison means something


def record() -> None:
    """Run the reference script on every corpus and write :data:`RECORDED`."""
    import tempfile

    if MISSING is not None:
        raise SystemExit(MISSING)
    with tempfile.TemporaryDirectory() as work:
        model = build_model(Path(work) / "tiny")
        corpora = {}
        for corpus in [*CORPORA, "conll14"]:
            decisions, absolute, normalised = run_reference(model, *corpus_pair(corpus), Path(work))
            corpora[corpus] = {"decisions": decisions, "absolute": absolute, "normalised": normalised}
            print(f"{corpus}: {absolute} {normalised}")
        recorded = {
            "script": "scribendi.py of github.com/robertostling/scribendi_score (MIT), run with --no_cuda --verbose",
            "model": fingerprint(model),
            "corpora": corpora,
        }
    RECORDED.parent.mkdir(exist_ok=True)
    RECORDED.write_text(json.dumps(recorded, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
