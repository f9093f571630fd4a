"""SOME and IMPARA as metrics of the library: registered and described, reference-free,
configured by settings that every error names, each distinct pair read once, and
``python -m scoring --metrics some,impara`` end to end (tiny models, tests/scoring/bert_lm_support.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import REGISTRY, ScoringOptions, registry
from scoring.lm import runtime
from scoring.metrics.impara import Impara
from scoring.metrics.some import Some
from tests.scoring.bert_lm_support import build_models, build_plain_bert, dataset_of, hypothesis_of, write_vocabulary

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["This are a sentence .", "He go to school yesterday .", "Nothing to fix here .", "A b c ."]
OUTPUTS = ["This is a sentence .", "He went to school yesterday .", "Nothing to fix here .", "A b c d ."]


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, str]:
    return build_models(tmp_path_factory.mktemp("lm-models"), SOURCES + OUTPUTS)


@pytest.fixture
def settings(models, monkeypatch) -> dict[str, str]:
    for name, value in {**models, "GEC_LM_DEVICE": "cpu"}.items():
        monkeypatch.setenv(name, value)
    for name in ("GEC_LM_DTYPE", "GEC_LM_BATCH_SIZE"):
        monkeypatch.delenv(name, raising=False)
    return models


@pytest.fixture
def unset(monkeypatch):
    for name in ("GEC_SOME_MODELS", "GEC_IMPARA_MODELS"):
        monkeypatch.delenv(name, raising=False)


def test_both_are_registered_reference_free_on_the_lm_lane():
    for name, label in (("some", "SOME"), ("impara", "IMPARA")):
        cls = REGISTRY[name]
        assert cls.reference_free and cls.lane == "lm" and cls.display_name() == label
        assert registry.describe(f"{name}.score").higher_is_better
        assert registry.can_resample(f"{name}.score")
    assert registry.valid_paths(["some"]) == ["some.score", "some.grammaticality", "some.fluency", "some.meaning"]
    assert registry.valid_paths(["impara"]) == ["impara.score", "impara.quality", "impara.similarity"]


def test_without_models_using_them_is_an_error_naming_the_setting(unset):
    """Not an "unsupported" note: a web process that writes those notes need not have the
    setting the worker holding the models has; every language can be scored. Building the
    metric reads no setting (scores are resampled where no model is); its models do."""
    assert registry.unsupported_metrics(["some", "impara"], lang="cs") == {}
    assert Some.model_work(ScoringOptions()) == Impara.model_work(ScoringOptions()) == 0.0
    with pytest.raises(runtime.LMSettingError, match="^GEC_SOME_MODELS: needs 3 comma-separated model directories"):
        _ = Some(ScoringOptions()).paths
    with pytest.raises(runtime.LMSettingError, match="^GEC_IMPARA_MODELS: needs 2 comma-separated model directories"):
        _ = Impara(ScoringOptions()).paths


def test_a_setting_with_the_wrong_number_of_directories_says_how_many(settings, monkeypatch):
    monkeypatch.setenv("GEC_SOME_MODELS", settings["GEC_IMPARA_MODELS"])
    with pytest.raises(runtime.LMSettingError, match="needs 3 comma-separated model directories, found 2"):
        _ = Some(ScoringOptions()).paths
    monkeypatch.setenv("GEC_IMPARA_MODELS", settings["GEC_SOME_MODELS"])
    with pytest.raises(runtime.LMSettingError, match="needs 2 comma-separated model directories, found 3"):
        _ = Impara(ScoringOptions()).paths
    monkeypatch.setenv("GEC_IMPARA_MODELS", "/nowhere/quality,/nowhere/similarity")
    with pytest.raises(runtime.LMSettingError, match="^GEC_IMPARA_MODELS: '/nowhere/quality' is not a directory"):
        _ = Impara(ScoringOptions()).paths
    assert Impara.model_work(ScoringOptions()) == 0.0


def score(metric_class, sources=SOURCES, outputs=OUTPUTS, options=None) -> dict:
    metric = metric_class(options or ScoringOptions())
    return metric.score(metric.statistics(dataset_of(sources), hypothesis_of("sys", outputs)))


def test_a_directory_that_is_not_a_regressor_is_an_error_naming_the_setting(settings, monkeypatch, tmp_path):
    vocabulary = write_vocabulary(tmp_path / "vocab.txt", SOURCES + OUTPUTS)
    encoder = build_plain_bert(tmp_path / "encoder", vocabulary)  # two labels: a classifier head, not a regressor
    g, f, m = settings["GEC_SOME_MODELS"].split(",")
    monkeypatch.setenv("GEC_SOME_MODELS", f"{encoder},{f},{m}")
    with pytest.raises(runtime.LMSettingError, match=r"^GEC_SOME_MODELS: .*encoder.* has 2 output labels"):
        score(Some)
    short = build_plain_bert(tmp_path / "short", vocabulary, num_labels=1, max_position_embeddings=64)
    quality, similarity = settings["GEC_IMPARA_MODELS"].split(",")
    monkeypatch.setenv("GEC_IMPARA_MODELS", f"{quality},{short}")
    with pytest.raises(runtime.LMSettingError, match=r"^GEC_IMPARA_MODELS: .*short.* takes 64 positions"):
        score(Impara)


def test_some_reads_every_model_with_the_fluency_tokenizer(settings, monkeypatch, tmp_path):
    """gec-metrics' quirk, kept: only the fluency directory needs a tokenizer."""
    g, f, m = (Path(p) for p in settings["GEC_SOME_MODELS"].split(","))
    original = score(Some)
    bare = []
    for path in (g, m):
        copy = tmp_path / path.name
        shutil.copytree(path, copy, ignore=shutil.ignore_patterns("*token*", "vocab.txt", "special_tokens_map.json"))
        bare.append(copy)
    monkeypatch.setenv("GEC_SOME_MODELS", f"{bare[0]},{f},{bare[1]}")
    assert score(Some) == original
    no_tokenizer = tmp_path / "fluency-bare"
    shutil.copytree(f, no_tokenizer, ignore=shutil.ignore_patterns("*token*", "vocab.txt", "special_tokens_map.json"))
    monkeypatch.setenv("GEC_SOME_MODELS", f"{g},{no_tokenizer},{m}")
    with pytest.raises(runtime.LMSettingError, match=r"^GEC_SOME_MODELS: .*fluency-bare.* has no (usable )?tokenizer"):
        score(Some)


def test_each_distinct_pair_is_read_once_per_dataset(settings, monkeypatch):
    seen: list[int] = []
    original = Some._parts

    def counting(self, sources, outputs):
        seen.append(len(outputs))
        return original(self, sources, outputs)

    monkeypatch.setattr(Some, "_parts", counting)
    dataset, metric = dataset_of(SOURCES), Some(ScoringOptions())
    first = metric.statistics(dataset, hypothesis_of("a", OUTPUTS))
    again = metric.statistics(dataset, hypothesis_of("b", OUTPUTS))
    unchanged = metric.statistics(dataset, hypothesis_of("c", SOURCES))
    assert first == again
    assert seen == [4, 3]  # system b read nothing; system c only the three lines it does not share with a
    fresh = Some(ScoringOptions()).statistics(dataset_of(SOURCES), hypothesis_of("c", SOURCES))
    assert unchanged == fresh


def test_signatures_name_the_models_weights_threshold_and_dtype(settings, monkeypatch):
    hashes = [runtime.model_signature(p) for p in settings["GEC_SOME_MODELS"].split(",")]
    assert Some(ScoringOptions()).signature() == (
        f"some|models:{'+'.join(hashes)}|weights:0.55,0.43,0.02|maxlen:128|dtype:float32"
    )
    assert Impara(ScoringOptions()).signature().endswith("|threshold:0.9|maxlen:128|dtype:float32")
    monkeypatch.setenv("GEC_LM_DTYPE", "bfloat16")
    assert Impara(ScoringOptions()).signature().endswith("|dtype:bfloat16")
    assert "weights:1,0,0" in Some(ScoringOptions(extra={"some_weights": (1, 0, 0)})).signature()


def test_batch_size_changes_no_figure(settings, monkeypatch):
    """Each line is scored on its own (padding is masked), so the batch size is not part of
    the signature: the figures agree to float rounding."""
    monkeypatch.setenv("GEC_LM_BATCH_SIZE", "1")
    alone = score(Impara), score(Some)
    monkeypatch.setenv("GEC_LM_BATCH_SIZE", "64")
    together = score(Impara), score(Some)
    for a, b in zip(alone, together):
        assert a.keys() == b.keys() and all(abs(a[k] - b[k]) < 1e-6 for k in a)


def test_the_command_line_scores_some_and_impara(settings, tmp_path):
    files = {}
    for name, lines in (("src", SOURCES), ("ref", SOURCES), ("hyp", OUTPUTS)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n")
    command = [sys.executable, "-m", "scoring", "--source", str(files["src"]), "--ref", str(files["ref"])]
    command += ["--hyp", f"sys={files['hyp']}", "--metrics", "some,impara", "--json"]
    done = subprocess.run(command, cwd=ROOT, env=os.environ.copy(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    scores = found["systems"]["sys"]
    assert set(scores) == {"some", "impara"} and 0.0 <= scores["impara"]["score"] <= 1.0
    assert "|some|models:" in found["signature"] and "|impara|models:" in found["signature"]
    assert scores["some"]["score"] == pytest.approx(score(Some)["score"], abs=1e-6)


def test_the_pairs_a_process_keeps_are_bounded(settings, monkeypatch):
    import scoring.metrics.some as some_module

    monkeypatch.setattr(some_module, "MAX_REMEMBERED", 6)
    dataset, metric = dataset_of(SOURCES), Impara(ScoringOptions())
    first = metric.statistics(dataset, hypothesis_of("a", OUTPUTS))
    second = metric.statistics(dataset, hypothesis_of("b", SOURCES))  # 4 + 4 > 6: the kept pairs start over
    assert first != second and metric.statistics(dataset, hypothesis_of("a", OUTPUTS)) == first
    assert max(len(found) for key, found in dataset.memo.items() if key[0] == "impara") <= 6
