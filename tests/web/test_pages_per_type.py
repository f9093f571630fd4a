"""The per-error-type comparison page and its table (leaderboard.insights.per_type)."""

import pytest

from leaderboard.insights.per_type import comparison, multi_token_counts
from tests.conftest import insight_metrics


def errant_scores(per_type_2, ds_2=None):
    return {
        "cs": {"f": 0.5},
        "ds": {"f": 0.6},
        "dt": {"f": 0.7},
        "per_type": {"2": per_type_2},
        "per_type_by_mode": {"ds": {"2": ds_2 or {}}, "dt": {"2": {}}},
    }


def counts(tp, fp, fn):
    return {"tp": tp, "fp": fp, "fn": fn, "p": 0.0, "r": 0.0, "f": 0.0}


def test_types_are_ordered_by_frequency_and_missing_cells_stay_empty():
    a = {
        "name": "a",
        "scores": errant_scores({"DET": counts(1, 0, 1), "PREP": counts(5, 0, 5)}, {"DET": counts(2, 0, 0)}),
    }
    b = {"name": "b", "scores": errant_scores({"DET": counts(0, 1, 2), "SPELL": counts(0, 0, 1)})}
    table = comparison([a, b], "2", 0.5)
    assert [r["type"] for r in table["rows"]] == ["PREP", "DET", "SPELL"]
    det = table["rows"][1]["cells"]
    assert det[0]["cs"]["tp"] == 1 and det[0]["ds"]["tp"] == 2 and det[1]["cs"]["fn"] == 2
    assert table["rows"][0]["cells"][1] == {}
    assert table["systems"] == ["a", "b"] and table["overall"][0]["ds"]["f"] == 0.6


def test_multi_token_row_counts_chunks_longer_than_one_token():
    # records: [index, start, end, hyp, refs, dependent, independent]
    chunks = {
        "chunks": [
            [
                [1, 1, 2, "a b", ["a b"], ["TP"], "TP"],  # 2-token target: TP
                [3, 3, 4, "x", ["y"], ["FP_ne"], "FP_ne"],  # one token: not counted
                [5, 5, 7, None, ["z"], ["FN"], "FN"],  # 2-token source span: FN
                [8, 8, 8, "p q", [None], ["FP_un"], "FP_un"],  # insertion of two tokens: FP
            ]
        ]
    }
    row = multi_token_counts(chunks, 0.5)
    assert (row["tp"], row["fp"], row["fn"]) == (1, 1, 1) and row["p"] == 0.5


def test_cat_level_must_be_1_2_or_3():
    with pytest.raises(ValueError):
        comparison([], "4", 0.5)


@pytest.mark.django_db
def test_page_shows_chosen_systems_side_by_side(insight_task, client):
    subs = insight_task["submissions"]
    response = client.get("/tasks/insight/per-type/", {"systems": [subs["T5"].pk, subs["BART"].pk], "cat": "3"})
    html = response.content.decode()
    assert response.status_code == 200
    header = html.split('id="per-type"')[1].split("</thead>")[0]
    assert "alice/T5" in header and "bob/BART" in header and "carol/GECToR-BERT" not in header
    assert 'data-type="R:SPELL"' in html or 'data-type="M:DET"' in html
    assert "ds / dt F" in html and 'class="bar det"' in html
    if "cleme2" in insight_metrics():
        assert 'data-type="multi-token"' in html


@pytest.mark.django_db
def test_page_defaults_to_the_top_three_at_cat_2(insight_task, client):
    html = client.get("/tasks/insight/per-type/").content.decode()
    header = html.split('id="per-type"')[1].split("</thead>")[0]
    assert header.count('colspan="8"') == 3
    assert 'data-type="DET"' in html


def test_any_metric_declaring_a_per_type_table_gets_the_same_comparison(monkeypatch):
    """A metric with its own type set and no detection modes (as M2 with NUCLE types)."""
    from scoring import REGISTRY, PerTypeTable
    from scoring.metrics.base import Metric

    class Typed(Metric):
        name = "typed"
        per_type = PerTypeTable(levels=("nucle",), default_level="nucle")

    monkeypatch.setitem(REGISTRY, "typed", Typed)
    scores = {
        "tp": 3,
        "fp": 1,
        "fn": 2,
        "f": 0.6,
        "per_type": {"nucle": {"ArtOrDet": counts(2, 1, 1), "Prep": counts(1, 0, 1)}},
    }
    table = comparison([{"name": "a", "scores": scores}], "nucle", 0.5, metric="typed")
    assert [r["type"] for r in table["rows"]] == ["ArtOrDet", "Prep"] and table["detection_modes"] == ()
    assert table["overall"][0]["cs"]["f"] == 0.6 and table["metric_label"] == "typed"
    with pytest.raises(ValueError):
        comparison([], "nucle", 0.5, metric="gleu")
