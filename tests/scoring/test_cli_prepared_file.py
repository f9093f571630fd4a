"""``python -m scoring --prepared FILE``: the prepared dataset kept between CLI runs."""

import json

import pytest

from scoring.cli.main import main
from scoring.pipelines import get_pipeline
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS

LINES = 12


@pytest.fixture
def inputs(tmp_path):
    """The first lines of the SEEDA subset: source, two references, two systems."""
    files = {}
    for name, path in [
        ("src", SUBSET_OUTPUTS / "INPUT.txt"),
        ("ref0", SUBSET_REFS[0]),
        ("ref1", SUBSET_REFS[1]),
        ("T5", SUBSET_OUTPUTS / "T5.txt"),
        ("BART", SUBSET_OUTPUTS / "BART.txt"),
    ]:
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("".join(path.read_text().splitlines(keepends=True)[:LINES]))
    return files


@pytest.fixture
def parsed(monkeypatch):
    """Every sentence handed to spaCy (sources and cached lines go through the pipeline)."""
    seen = []
    pipeline = get_pipeline("en", "full")
    original = pipeline.parse

    def counting(token_lists):
        token_lists = list(token_lists)
        seen.extend(token_lists)
        return original(token_lists)

    monkeypatch.setattr(pipeline, "parse", counting)
    return seen


def run(capsys, inputs, prepared, *systems, ref="ref1"):
    args = [
        "--source",
        str(inputs["src"]),
        "--ref",
        str(inputs["ref0"]),
        "--ref",
        str(inputs[ref]),
        "--metrics",
        "errant,gotoscorer,cleme2",
        "--json",
        "--prepared",
        str(prepared),
    ]
    for name in systems:
        args += ["--hyp", f"{name}={inputs[name]}"]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def test_a_second_run_parses_only_lines_never_seen_and_scores_the_same(capsys, tmp_path, inputs, parsed):
    prepared = tmp_path / "gold.prepared"
    first = run(capsys, inputs, prepared, "T5")
    assert prepared.exists() and len(parsed) >= LINES
    parsed.clear()
    again = run(capsys, inputs, prepared, "T5")
    assert parsed == [] and again == first
    both = run(capsys, inputs, prepared, "T5", "BART")
    changed = {tuple(line.split()) for line in inputs["BART"].read_text().splitlines()} - {
        tuple(line.split()) for name in ("src", "ref0", "ref1", "T5") for line in inputs[name].read_text().splitlines()
    }
    assert {tuple(tokens) for tokens in parsed} == changed
    assert both["systems"]["T5"]["errant"] == first["systems"]["T5"]["errant"]


def test_a_file_made_from_other_gold_or_damaged_is_replaced_not_trusted(capsys, tmp_path, inputs, parsed):
    prepared = tmp_path / "gold.prepared"
    run(capsys, inputs, prepared, "T5")
    made = prepared.read_bytes()
    other = run(capsys, inputs, prepared, "T5", ref="ref0")  # two copies of REF0: another gold
    assert prepared.read_bytes() != made and other["n_references"] == 2
    prepared.write_bytes(b"not a zip")
    parsed.clear()
    fresh = run(capsys, inputs, prepared, "T5")
    assert len(parsed) >= LINES and prepared.read_bytes()[:2] == b"PK" and "errant" in fresh["systems"]["T5"]
