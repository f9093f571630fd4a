"""``python -m scoring --json`` prints the object of docs/contracts.md section 2."""

import json

from scoring.cli.main import main
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, unshipped

pytestmark = unshipped


def test_json_shape(capsys):
    code = main(
        [
            "--source",
            str(SUBSET_OUTPUTS / "INPUT.txt"),
            "--ref",
            str(SUBSET_REFS[0]),
            "--ref",
            str(SUBSET_REFS[1]),
            "--hyp",
            f"T5={SUBSET_OUTPUTS / 'T5.txt'}",
            "--hyp",
            str(SUBSET_OUTPUTS / "INPUT.txt"),
            "--metrics",
            "errant",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert (
        out["signature"].startswith("scoring:")
        and "|errant:3.0.2|spacy:3.8" in out["signature"]
        and "|beta:0.5" in out["signature"]
    )
    assert (out["n_sentences"], out["n_references"]) == (391, 2)
    assert list(out["systems"]) == ["T5", "INPUT"]
    errant = out["systems"]["T5"]["errant"]
    for mode in ("cs", "ds", "dt", "cse"):
        assert set(errant[mode]) == {"tp", "fp", "fn", "p", "r", "f"}
    assert set(errant["per_type"]) == {"1", "2", "3"}
    assert set(errant["per_type"]["1"]) <= {"M", "R", "U", "UNK"}
    assert set(errant["sentence"]) == {"p", "r", "f"}
    assert all(0.0 <= errant[m][k] <= 1.0 for m in ("cs", "ds") for k in ("p", "r", "f"))
    assert "gotoscorer" not in out["systems"]["T5"]  # metrics not asked for are absent


def test_table_output(capsys):
    code = main(
        [
            "--source",
            str(SUBSET_OUTPUTS / "INPUT.txt"),
            "--ref",
            str(SUBSET_REFS[0]),
            "--hyp",
            f"T5={SUBSET_OUTPUTS / 'T5.txt'}",
            "--metrics",
            "errant",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:4] == ["system", "ERRANT", "P", "ERRANT"]
    assert out.splitlines()[1].startswith("T5")


def test_gleu_json_and_table(capsys):
    args = [
        "--source",
        str(SUBSET_OUTPUTS / "INPUT.txt"),
        "--ref",
        str(SUBSET_REFS[0]),
        "--ref",
        str(SUBSET_REFS[1]),
        "--hyp",
        f"T5={SUBSET_OUTPUTS / 'T5.txt'}",
        "--metrics",
        "gleu",
    ]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    gleu = out["systems"]["T5"]["gleu"]
    assert set(gleu) == {"score", "sd", "sentence"} and set(gleu["sentence"]) == {"score"}
    assert 0.0 <= gleu["score"] <= 1.0 and 0.0 <= gleu["sentence"]["score"] <= 1.0
    assert "|gleu|n:4|iterations:500|seed:j*101|" in out["signature"] and "errant" not in out["systems"]["T5"]
    assert main(args) == 0
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert header.split() == ["system", "GLEU"] and row.split()[1] == f"{gleu['score']:.4f}"
