"""Scribendi's pieces, its metric on a tiny causal LM, and the errors an organizer's model
directory can give (each names the setting, never a crash inside transformers).

The comparison with the reference script itself is tests/web/test_scribendi_parity.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import scoring
from scoring.cli.main import main
from scoring.errors import InputError
from scoring.lm import runtime
from scoring.lm.scribendi import corpus_scores, decisions, levenshtein_ratio, sorted_words, token_sort_ratio
from tests.support.lm_support import build_causal_lm, build_masked_lm
from tests.support.needs import package

ROOT = Path(__file__).resolve().parents[2]
MULTIGEC = ROOT / "leaderboard" / "demo_data" / "multigec"
SOURCES = (MULTIGEC / "cs-geccc" / "source.txt").read_text(encoding="utf-8").splitlines()[:40]


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory) -> Path:
    return build_causal_lm(tmp_path_factory.mktemp("lm") / "tiny", SOURCES)


@pytest.fixture
def lm_env(tiny_lm, monkeypatch) -> Path:
    monkeypatch.setenv("GEC_LM_MODEL", str(tiny_lm))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    return tiny_lm


def script_levenshtein_ratio(a: str, b: str) -> float:
    """The script's definition, cell by cell: substitution 2, insertion and deletion 1."""
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        previous, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 2
            previous, row[j] = row[j], min(previous + cost, row[j] + 1, row[j - 1] + 1)
    return 1 - row[len(b)] / (len(a) + len(b))


# -- the string similarities ------------------------------------------------------------------
def test_token_sort_deletes_latin1_letters_as_fuzzywuzzy_does():
    """fuzzywuzzy's default processing drops U+0080-U+00FF: Swedish "för" and "fär" both read "fr"."""
    assert sorted_words("för") == sorted_words("fär") == "fr"
    assert token_sort_ratio("för", "fär") == 100
    assert token_sort_ratio("för", "fär", "unicode") < 100
    assert sorted_words("Ďábel, Ελλάδα! Привет") == "ďbel ελλάδα привет"  # Czech Ď (U+010E) kept, á gone
    assert token_sort_ratio("b a", "a b") == 100  # word order does not count
    assert token_sort_ratio("äö", "abc") == 0  # one side empty once processed


def test_levenshtein_ratio_is_the_scripts_dynamic_programme():
    rng = random.Random(7)
    pairs = [("", "abc"), ("kitten", "sitting"), ("för", "fär"), (SOURCES[1], SOURCES[1].replace(" ", "", 3))]
    pairs += [
        ("".join(rng.choices("abcä ", k=rng.randint(1, 30))), "".join(rng.choices("abcä ", k=30))) for _ in range(50)
    ]
    for a, b in pairs:
        assert levenshtein_ratio(a, b) == script_levenshtein_ratio(a, b)


def test_token_sort_ratio_equals_fuzzywuzzy_on_the_demo_lines():
    fuzz = package("fuzzywuzzy.fuzz", "requirements-dev.txt installs it: the reference")
    package("Levenshtein", "without python-Levenshtein, fuzzywuzzy uses difflib, not what MultiGEC ran")
    for corpus in ("cs-geccc", "is-iceec", "uk-ua-gec"):
        source = (MULTIGEC / corpus / "source.txt").read_text(encoding="utf-8").splitlines()
        output = (MULTIGEC / corpus / "systems" / "eager.txt").read_text(encoding="utf-8").splitlines()
        for a, b in zip(source[:60], output[:60]):
            assert token_sort_ratio(a, b) == fuzz.token_sort_ratio(a, b), (corpus, a, b)


def test_decisions_and_both_corpus_figures():
    found = decisions(["a b", "a b", "a b", "x y z"], ["a b", "a c", "b a", "q"], [5.0] * 4, [5.0, 6.0, 4.0, 1.0])
    assert found == [0, -1, 1, -1]  # equal; perplexity not lower; similar; too different
    assert corpus_scores(found) == {"score": -0.25, "sum": -1, "plus": 1, "minus": 2, "unchanged": 1}


# -- opt-in, never the default ranking ----------------------------------------------------------
def test_language_model_metrics_are_named_to_run_and_never_rank_by_default():
    assert "scribendi" not in scoring.metric_names()
    assert scoring.metric_names(["scribendi", "errant"]) == ["errant", "scribendi"]
    assert scoring.default_path(["scribendi", "gleu"]) == "gleu.score"
    assert scoring.default_path(["scribendi"]) == "scribendi.score"  # alone, it is all there is
    assert scoring.is_reference_free("scribendi.score") and not scoring.is_reference_free("gleu.score")
    assert scoring.lanes(["scribendi", "errant"]) == {"lm"}


# -- the metric on a tiny model ----------------------------------------------------------------
def write_lines(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_the_cli_scores_scribendi_by_name(lm_env, tmp_path, capsys):
    source = SOURCES[:9]
    output = [line.replace(" ,", ",") for line in source]
    args = ["--source", write_lines(tmp_path / "src.txt", source), "--ref", str(tmp_path / "src.txt")]
    args += ["--hyp", f"sys={write_lines(tmp_path / 'out.txt', output)}", "--metrics", "scribendi", "--lang", "cs"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    figures = out["systems"]["sys"]["scribendi"]
    assert figures["plus"] + figures["minus"] + figures["unchanged"] == 9
    assert figures["score"] == figures["sum"] / 9
    signature = f"scribendi|model:{runtime.model_signature(lm_env)}|dtype:bfloat16|batch:4|variant:multigec"
    assert signature in out["signature"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[0].split() == ["system", "Scribendi"]


def test_a_system_that_changed_nothing_reads_no_token(lm_env, tmp_path, capsys):
    """Its decisions are all known (0): nothing is tokenized, and counting what the model
    would read (scripts/lm-demo's estimate) gives none rather than failing in the tokenizer."""
    from scoring.lm.scribendi import token_ids

    assert token_ids(runtime.load_causal_lm(str(lm_env), runtime.LM_MODEL, "cpu", "bfloat16"), []) == []
    source = write_lines(tmp_path / "src.txt", SOURCES[:5])
    args = ["--source", source, "--ref", source, "--hyp", f"copy={source}", "--metrics", "scribendi", "--lang", "cs"]
    assert main([*args, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["systems"]["copy"]["scribendi"]
    assert figures["unchanged"] == 5 and figures["score"] == 0


def test_settings_change_the_signature(lm_env, monkeypatch):
    from scoring.metrics.scribendi import Scribendi

    monkeypatch.setenv("GEC_LM_DTYPE", "float32")
    monkeypatch.setenv("GEC_LM_BATCH_SIZE", "1")
    options = scoring.ScoringOptions(extra={"scribendi_variant": "unicode"})
    assert Scribendi(options).signature().endswith("|dtype:float32|batch:1|variant:unicode")


# -- bad settings and bad input: clear errors -----------------------------------------------------
def cli_args(tmp_path: Path, lines: list[str]) -> list[str]:
    source = write_lines(tmp_path / "src.txt", lines)
    output = write_lines(tmp_path / "out.txt", [line + " !" for line in lines])
    return ["--source", source, "--ref", source, "--hyp", f"sys={output}", "--metrics", "scribendi", "--lang", "cs"]


@pytest.mark.parametrize(
    "value, says",
    [
        ("", "GEC_LM_MODEL: is not set"),
        ("/nonexistent/model", "is not a directory"),
    ],
)
def test_an_unusable_setting_is_an_error_naming_it(value, says, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GEC_LM_MODEL", value)
    assert main(cli_args(tmp_path, SOURCES[:2])) == 2
    assert says in capsys.readouterr().err


def test_a_directory_that_is_not_a_causal_lm(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GEC_LM_MODEL", str(build_masked_lm(tmp_path / "bert", SOURCES)))
    assert main(cli_args(tmp_path, SOURCES[:2])) == 2
    assert "GEC_LM_MODEL: " in (err := capsys.readouterr().err) and "is not a causal language model" in err


def test_a_model_without_its_tokenizer(tiny_lm, tmp_path, monkeypatch, capsys):
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("config.json", "model.safetensors"):
        (bare / name).write_bytes((tiny_lm / name).read_bytes())
    monkeypatch.setenv("GEC_LM_MODEL", str(bare))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    assert main(cli_args(tmp_path, SOURCES[:2])) == 2
    assert "GEC_LM_MODEL: " in (err := capsys.readouterr().err) and "has no tokenizer" in err


def test_cuda_is_taken_where_it_is_and_named_where_it_is_not(monkeypatch):
    import torch

    if torch.cuda.is_available():  # a GPU machine: the setting is simply honoured
        assert runtime.resolve_device("cuda") == "cuda"
    else:
        with pytest.raises(runtime.LMSettingError, match="GEC_LM_DEVICE: is cuda but"):
            runtime.resolve_device("cuda")
    with pytest.raises(runtime.LMSettingError, match="GEC_LM_BATCH_SIZE: 'x' is not an integer"):
        runtime.resolve_batch_size(4, "x")
    with pytest.raises(runtime.LMSettingError, match="GEC_LM_DTYPE: 'int8' is not one of"):
        runtime.resolve_dtype("bfloat16", "int8")


def test_an_essay_past_the_context_names_its_line(tmp_path, monkeypatch, capsys):
    short = build_causal_lm(tmp_path / "short", SOURCES, context=64)
    monkeypatch.setenv("GEC_LM_MODEL", str(short))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    lines = ["Ahoj .", " ".join(SOURCES[:6])]
    assert main(cli_args(tmp_path, lines)) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "past the 64-token context of the model in GEC_LM_MODEL" in err
    assert "line 1:" not in err


def test_the_metric_raises_input_error_past_the_context(tmp_path, monkeypatch):
    from scoring.dataset import Dataset
    from scoring.hypothesis import Hypothesis
    from scoring.metrics.scribendi import Scribendi

    monkeypatch.setenv("GEC_LM_MODEL", str(build_causal_lm(tmp_path / "short", SOURCES, context=32)))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    long_line = " ".join(SOURCES[:4])
    dataset = Dataset([["Ahoj", "."], long_line.split()], [], lang="cs")
    with pytest.raises(InputError, match="source line is .* tokens, past the 32-token context"):
        Scribendi(scoring.ScoringOptions()).statistics(
            dataset, Hypothesis("s", [["Ahoj"], ["x"]], [], lines=["Ahoj", "x"])
        )


def test_scores_and_resampling_need_no_model(monkeypatch):
    """A tie-group job or a web process without GEC_LM_MODEL still reads stored statistics."""
    monkeypatch.delenv("GEC_LM_MODEL", raising=False)
    statistics = {"decisions": [1, 0, -1, 1]}
    assert scoring.resampling("scribendi.score", statistics, scoring.ScoringOptions()).corpus() == {
        "scribendi.score": 0.25
    }
    from scoring.metrics.scribendi import Scribendi

    assert Scribendi(scoring.ScoringOptions()).score(statistics)["sum"] == 1


@pytest.mark.parametrize(
    "damage", [b"", b"\x00" * 64, b"not a safetensors file at all"], ids=["empty", "zeros", "text"]
)
def test_a_corrupt_weights_file_names_the_setting(damage, tiny_lm, tmp_path, monkeypatch, capsys):
    broken = tmp_path / "broken"
    broken.mkdir()
    for source in tiny_lm.iterdir():
        (broken / source.name).write_bytes(source.read_bytes())
    (broken / "model.safetensors").write_bytes(damage)
    monkeypatch.setenv("GEC_LM_MODEL", str(broken))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    assert main(cli_args(tmp_path, SOURCES[:2])) == 2
    assert "GEC_LM_MODEL: " in (err := capsys.readouterr().err) and "cannot be loaded" in err
