"""``python -m scoring --metrics m2`` prints m2scorer's figures in the CLI JSON shape, from
an M2 gold file or from reference texts (gold edits = ERRANT's edits of each reference)."""

import csv
import json

from scoring.cli.main import main
from tests.conftest import GOLDEN, SEEDA, SUBSET_OUTPUTS, SUBSET_REFS, unshipped

pytestmark = unshipped

GOLD_M2 = SEEDA / "derived" / "subset" / "official-2014.combined.subset391.m2"
SHAPE = {"tp", "fp", "fn", "p", "r", "f", "sentence", "per_type"}


def run(capsys, *arguments) -> dict:
    assert main([*arguments, "--metrics", "m2", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_m2_gold_file(capsys):
    out = run(capsys, "--m2", str(GOLD_M2), "--hyp", f"BART={SUBSET_OUTPUTS / 'BART.txt'}")
    m2 = out["systems"]["BART"]["m2"]
    assert set(m2) == SHAPE and set(m2["sentence"]) == {"p", "r", "f"}
    golden = next(row for row in csv.DictReader((GOLDEN / "m2_seeda_subset.csv").open()) if row["system"] == "BART")
    assert (m2["tp"], m2["fp"], m2["fn"]) == (int(golden["TP"]), int(golden["FP"]), int(golden["FN"]))
    assert "|m2|max-unchanged-words:2" in out["signature"]


def test_m2_options_reach_the_signature(capsys):
    out = run(
        capsys,
        "--m2",
        str(GOLD_M2),
        "--hyp",
        f"T5={SUBSET_OUTPUTS / 'T5.txt'}",
        "--ignore-whitespace-casing",
        "--max-unchanged-words",
        "3",
    )
    assert "|m2|max-unchanged-words:3|ignore-whitespace-casing" in out["signature"]


def test_m2_from_reference_texts(capsys):
    out = run(
        capsys,
        "--source",
        str(SUBSET_OUTPUTS / "INPUT.txt"),
        "--ref",
        str(SUBSET_REFS[0]),
        "--ref",
        str(SUBSET_REFS[1]),
        "--hyp",
        f"REF-M={SUBSET_OUTPUTS / 'REF-M.txt'}",
        "--hyp",
        f"INPUT={SUBSET_OUTPUTS / 'INPUT.txt'}",
    )
    system, source = out["systems"]["REF-M"]["m2"], out["systems"]["INPUT"]["m2"]
    assert set(system) == SHAPE and 0.0 < system["f"] <= 1.0
    assert (source["tp"], source["fp"], source["p"], source["f"]) == (0, 0, 1.0, 0.0)
    assert all(t in ("unannotated", "UNK") or ":" in t for t in system["per_type"]["1"])  # ERRANT's types
