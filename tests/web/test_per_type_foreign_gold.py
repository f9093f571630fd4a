"""ERRANT per-type tables on the demo's M2 gold (CoNLL-2014, NUCLE types): system and gold
edits are counted under ERRANT's types, the annotators' types are a recall-only table,
no type name is cut, and P or R is 100 only where an independent count says so."""

from collections import Counter

import pytest

import scoring
from leaderboard import demo
from scoring.metrics.gold_types import ERRANT_CATEGORIES, errant_gold_types, is_errant_type

SENTENCES = 200


def one_annotator(m2: str, annotator: int) -> str:
    """The M2 text with only ``annotator``'s ``A`` lines (so no reference is chosen per sentence)."""
    return (
        "\n".join(
            line for line in m2.splitlines() if not line.startswith("A ") or line.rsplit("|||", 1)[1] == str(annotator)
        )
        + "\n"
    )


@pytest.fixture(scope="module")
def scored():
    m2 = one_annotator(demo.gold_blocks(0, SENTENCES), 0)
    corpus = scoring.read_m2(m2.encode(), name="demo")
    dataset = scoring.Dataset.from_m2(corpus)
    system = demo.SYSTEMS[2]  # "Eager": many gold edits, and noise
    hypothesis = scoring.hypothesis_from_lines(dataset, demo.simulate(corpus, system).splitlines(), system.name)
    scores = scoring.score_systems(dataset, [hypothesis], ["errant"]).systems[system.name]["errant"]
    return {"m2": m2, "dataset": dataset, "hypothesis": hypothesis, "scores": scores}


def nucle_types(m2: str) -> set[str]:
    return {line.split("|||")[1] for line in m2.splitlines() if line.startswith("A ")} - {"noop"}


def test_no_type_name_is_cut(scored):
    per_type = scored["scores"]["per_type"]
    assert set(per_type["2"]) <= ERRANT_CATEGORIES | {"UNK"}
    assert all(is_errant_type(t) for t in per_type["3"])
    assert set(per_type["1"]) <= {"M", "R", "U", "UNK"}
    assert "" not in per_type["2"]
    assert set(scored["scores"]["per_type_annotator"]) <= nucle_types(scored["m2"])
    assert {"ArtOrDet", "Nn", "Vt"} <= set(scored["scores"]["per_type_annotator"])


def independent_counts(dataset, hypothesis) -> dict[str, Counter]:
    """TP/FP/FN per ERRANT type from the edits themselves: a gold edit matched by a system
    edit (same span and correction) is a TP of the gold's ERRANT type, an unmatched one an
    FN of it; an unmatched system edit is an FP of the system's type."""
    gold_types = errant_gold_types(dataset)[0]
    counts = {"tp": Counter(), "fp": Counter(), "fn": Counter()}
    for i, hyp_edits in enumerate(hypothesis.edits):
        gold = {
            (e.start, e.end, e.correction): t
            for e, t in zip(dataset.references[0].edits[i] or [], gold_types[i] or [])
            if e.type not in ("noop", "UNK")
        }
        hyp = {(e.start, e.end, e.correction): e.type for e in hyp_edits if e.type != "UNK"}
        for key, etype in gold.items():
            counts["tp" if key in hyp else "fn"][etype] += 1
        for key, etype in hyp.items():
            if key not in gold:
                counts["fp"][etype] += 1
    return counts


def test_rows_match_an_independent_count(scored):
    expected = independent_counts(scored["dataset"], scored["hypothesis"])
    table = scored["scores"]["per_type"]["3"]
    for etype, row in table.items():
        assert (row["tp"], row["fp"], row["fn"]) == (
            expected["tp"][etype],
            expected["fp"][etype],
            expected["fn"][etype],
        ), etype
        if row["p"] == 1.0:
            assert row["fp"] == 0, etype
        if row["r"] == 1.0:
            assert row["fn"] == 0, etype
    # before, TPs sat under NUCLE types and FPs under ERRANT's, so no row had both
    assert len([t for t, row in table.items() if row["tp"] and row["fp"]]) >= 5


def test_overall_counts_stay_those_of_the_gold_as_given(scored):
    """Re-typing decides the row an edit is counted in, never whether it matches."""
    cs = scored["scores"]["cs"]
    rows = scored["scores"]["per_type"]["3"].values()
    assert (sum(r["tp"] for r in rows), sum(r["fp"] for r in rows), sum(r["fn"] for r in rows)) == (
        cs["tp"],
        cs["fp"],
        cs["fn"],
    )
    recall = scored["scores"]["per_type_annotator"].values()
    assert sum(r["tp"] for r in recall) == cs["tp"] and sum(r["fn"] for r in recall) == cs["fn"]


def test_text_references_have_no_annotator_table():
    dataset = scoring.Dataset.from_m2(
        scoring.read_m2(b"S a b .\nA 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n", name="errant-typed")
    )
    hypothesis = scoring.hypothesis_from_lines(dataset, ["the b ."], "sys")
    scores = scoring.score_systems(dataset, [hypothesis], ["errant"]).systems["sys"]["errant"]
    assert "per_type_annotator" not in scores and errant_gold_types(dataset) is None
