"""CLEME's stored statistics: JSON, one record per changed chunk with its outcomes, enough to
redraw CLEME2.0's coloured sentence view and to rescore without the partition."""

import json

from scoring import Dataset, ScoringOptions, read_hypothesis, score_systems
from scoring.cleme import CHUNK_FIELDS
from scoring.metrics.cleme2 import Cleme2
from tests.conftest import CLEME_DATA


def test_statistics_are_compact_json_records():
    dataset = Dataset.from_files(m2=CLEME_DATA / "demo.errant")
    hyp = read_hypothesis(dataset, CLEME_DATA / "demo-AMU.errant", "AMU")
    stats = Cleme2(ScoringOptions()).statistics(dataset, hyp)
    assert json.loads(json.dumps(stats)) == stats
    assert stats["n_chunks"] == [1, 13] and stats["refs"] == [[0, 1], [0, 1]]
    records = {r[0]: dict(zip(CHUNK_FIELDS, r)) for r in stats["chunks"][1]}
    assert records[1] == {
        "index": 1,
        "start": 3,
        "end": 5,
        "hyp": "diagnosed out",
        "refs": ["diagnosed", "diagnosed"],
        "dependent": ["FP_ne", "FP_ne"],
        "independent": "FP_ne",
    }
    assert records[3]["hyp"] is None and records[3]["refs"] == [None, "a"]  # a dummy chunk only reference 1 fills
    assert (records[3]["dependent"], records[3]["independent"]) == (["TN", "FN"], "TN")
    assert (records[5]["dependent"], records[5]["independent"]) == (["TP", "FP_un"], "TP")
    assert records[9]["dependent"] == ["FP_un", "FP_un"]
    assert sorted(records) == [1, 3, 5, 7, 9, 11]  # unchanged chunks are counted, not listed


def test_scores_come_out_as_the_contract_says():
    dataset = Dataset.from_files(m2=CLEME_DATA / "demo.errant")
    hyp = read_hypothesis(dataset, CLEME_DATA / "demo-AMU.errant", "AMU")
    result = score_systems(dataset, [hyp], ["cleme", "cleme2"]).systems["AMU"]
    assert set(result["cleme"]) == {"dependent", "independent"}
    assert set(result["cleme"]["dependent"]["corpus"]) == {"tp", "fp", "fn", "tn", "p", "r", "f", "acc"}
    assert set(result["cleme2"]) == {"dependent", "independent"}
    assert set(result["cleme2"]["independent"]["sentence"]) == {
        "tp",
        "fp_ne",
        "fp_un",
        "fn",
        "tn",
        "hit",
        "error",
        "under",
        "over",
        "score",
    }
