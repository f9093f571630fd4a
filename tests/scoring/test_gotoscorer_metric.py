"""The registered ``gotoscorer`` metric: JSON statistics, pooled scores, options, errors."""

import json

import pytest

from scoring import REGISTRY, Dataset, InputError, ScoringOptions, read_hypothesis, read_m2, score_systems
from scoring.gotoscorer import Pool, decode
from tests.conftest import SEEDA

DEMO = SEEDA / "gts_demo"


@pytest.fixture(scope="module")
def demo_dataset():
    return Dataset.from_m2(read_m2(DEMO / "ref.m2"))


@pytest.fixture(scope="module")
def system(demo_dataset):
    return read_hypothesis(demo_dataset, DEMO / "hyp_1sys.m2", "sys1")


def test_registered_as_a_pool_metric():
    assert REGISTRY["gotoscorer"].pooled


def test_statistics_are_per_sentence_bit_strings(demo_dataset, system):
    metric = REGISTRY["gotoscorer"](ScoringOptions())
    stats = metric.statistics(demo_dataset, system)
    assert json.loads(json.dumps(stats)) == stats
    assert stats["ref"] == 0
    assert [len(s) for s in stats["gold"]] == [11, 13]  # the demo's chunk counts (weight.txt)
    assert len(stats["modified"]) == len(stats["correct"]) == 2
    assert set("".join(stats["modified"] + stats["correct"] + stats["gold"])) <= {"0", "1"}


def test_json_keys_and_pool_of_one(demo_dataset, system):
    result = score_systems(demo_dataset, [system], ["gotoscorer"]).systems["sys1"]["gotoscorer"]
    assert {"p", "r", "f", "accuracy", "tp", "fp", "fn", "tn", "weighted", "pool_size", "ref", "unweighted"} <= set(
        result
    )
    assert result["pool_size"] == 1
    # Alone, a system's correct chunks weigh 0 and the rest 1: its TP weigh nothing.
    assert result["tp"] == 0.0 and result["p"] == 0.0


def test_score_pool_equals_the_pool_object(demo_dataset, system):
    metric = REGISTRY["gotoscorer"](ScoringOptions())
    other = read_hypothesis(
        demo_dataset,
        "\n".join(["S " + " ".join(s) + "\n" for s in demo_dataset.sources]).encode(),
        "copy",
        filename="copy.m2",
    )
    stats = {"sys1": metric.statistics(demo_dataset, system), "copy": metric.statistics(demo_dataset, other)}
    scores = metric.score_pool(stats)
    gold_modified = decode(stats["sys1"])[0]
    pool = Pool.of(gold_modified, {name: decode(s)[1] for name, s in stats.items()})
    for name, expected in pool.all_scores().items():
        assert {k: scores[name][k] for k in expected} == expected


def test_unknown_reference_is_an_input_error(demo_dataset, system):
    with pytest.raises(InputError, match="reference 3 does not exist"):
        score_systems(demo_dataset, [system], ["gotoscorer"], ScoringOptions(gts_ref=3))


def test_statistics_of_other_gold_chunks_are_refused(demo_dataset, system):
    metric = REGISTRY["gotoscorer"](ScoringOptions())
    stats = metric.statistics(demo_dataset, system)
    with pytest.raises(ValueError, match="other gold chunks"):
        metric.score_pool({"a": stats, "b": {**stats, "ref": 1}})
