"""``python -m scoring --bootstrap N [--bootstrap-path PATH]``: any resampled score, against the first system."""

import json

import pytest

from scoring.cli.main import main
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, unshipped

pytestmark = unshipped

ARGS = [
    "--source",
    str(SUBSET_OUTPUTS / "INPUT.txt"),
    "--ref",
    str(SUBSET_REFS[0]),
    "--ref",
    str(SUBSET_REFS[1]),
    "--hyp",
    f"INPUT={SUBSET_OUTPUTS / 'INPUT.txt'}",
    "--hyp",
    f"T5={SUBSET_OUTPUTS / 'T5.txt'}",
    "--metrics",
    "gleu",
]


def test_gleu_bootstrap_against_the_first_system(capsys):
    assert main([*ARGS, "--json", "--bootstrap", "200", "--bootstrap-path", "gleu.score"]) == 0
    out = json.loads(capsys.readouterr().out)
    test = out["bootstrap"]["T5"]
    gleu = {name: system["gleu"]["score"] for name, system in out["systems"].items()}
    assert test["delta"] == pytest.approx(gleu["T5"] - gleu["INPUT"], abs=1e-12)
    assert test["ci_low"] <= test["delta"] <= test["ci_high"] and test["p_value"] < 0.05 and test["samples"] == 200


def test_a_path_that_cannot_be_resampled_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*ARGS, "--bootstrap", "10", "--bootstrap-path", "gotoscorer.tp"])
    assert exit_.value.code == 2 and "gleu.score" in capsys.readouterr().err


def test_gotoscorer_bootstrap_weighs_every_sample_with_the_pool_of_the_run(capsys):
    args = [*ARGS[:-1], "gotoscorer", "--json", "--bootstrap", "100", "--bootstrap-path", "gotoscorer.f"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    f = {name: system["gotoscorer"]["f"] for name, system in out["systems"].items()}
    assert out["bootstrap"]["T5"]["delta"] == pytest.approx(f["T5"] - f["INPUT"], abs=1e-12)
