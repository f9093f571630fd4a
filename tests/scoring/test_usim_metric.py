"""The registered ``usim`` metric: its JSON fragment, statistics, signature and parse reuse."""

from __future__ import annotations

import json

import pytest

from scoring import REGISTRY, ScoringOptions, hypothesis_from_lines, score_systems, scores_from_statistics
from scoring.metrics.usim import Usim
from scoring.pipelines import get_pipeline

SOURCE = ["One sentence , kept .", "The cat sat on the mat .", '"']
OUTPUT = ["One sentence , kept .", "The cat sit on mat .", '"']


@pytest.fixture(scope="module")
def tiny():
    from scoring import Dataset

    return Dataset.from_text(SOURCE, [SOURCE])


def test_usim_is_registered_and_scores_p_r_f(tiny):
    assert REGISTRY["usim"] is Usim
    hypothesis = hypothesis_from_lines(tiny, OUTPUT, "sys")
    result = score_systems(tiny, [hypothesis], ["usim"])
    scores = result.systems["sys"]["usim"]
    assert set(scores) == {"p", "r", "f"}
    assert all(0.0 <= scores[k] <= 1.0 for k in scores)
    assert result.signature.endswith("|usim|graph:dependency")


def test_corpus_scores_are_means_of_stored_sentence_scores(tiny):
    hypothesis = hypothesis_from_lines(tiny, OUTPUT, "sys")
    result = score_systems(tiny, [hypothesis], ["usim"])
    stored = json.loads(json.dumps(result.statistics))
    sentences = stored["sys"]["usim"]["sentences"]
    assert len(sentences) == 3 and sentences[0] == [1.0, 1.0, 1.0] and sentences[2] == [1.0, 1.0, 1.0]
    assert sentences[1][2] < 1.0
    rescored = scores_from_statistics(stored, [Usim(ScoringOptions())])["sys"]["usim"]
    assert rescored == pytest.approx(
        {
            "p": sum(s[0] for s in sentences) / 3,
            "r": sum(s[1] for s in sentences) / 3,
            "f": sum(s[2] for s in sentences) / 3,
        }
    )


def test_statistics_reuse_the_parses_already_made(tiny, monkeypatch):
    hypothesis = hypothesis_from_lines(tiny, OUTPUT, "sys")
    hypothesis.parses(tiny)

    def no_second_parse(*args, **kwargs):
        raise AssertionError("USIM parsed a sentence again")

    monkeypatch.setattr("scoring.nlp.load_nlp", no_second_parse)
    monkeypatch.setattr(get_pipeline("en", "full"), "parse", no_second_parse)
    metric = Usim(ScoringOptions())
    metric.prepare(tiny)
    assert len(metric.statistics(tiny, hypothesis)["sentences"]) == 3
