"""Chunk partition: shared boundaries, merging of touching edits, dummy chunks (CLEME section 3.1)."""

from scoring import Dataset, Edit, read_hypothesis
from scoring.cleme import partition
from scoring.cleme.partition import chunk_edits, merged_intervals
from tests.conftest import CLEME_DATA


def edit(start, end, correction=""):
    return Edit(start, end, correction, "R:OTHER")


def test_overlapping_or_touching_edits_merge():
    assert merged_intervals([[edit(2, 3)], [edit(3, 4)]]) == [[2, 4]]
    assert merged_intervals([[edit(2, 3)], [edit(3, 3, "x")]]) == [[2, 3]]
    assert merged_intervals([[edit(1, 1, "x")], [edit(3, 4)]]) == [[1, 1], [3, 4]]


def test_every_target_shares_the_spans():
    source = "a b c d e".split()
    hyp = chunk_edits([edit(1, 2, "B")])
    ref = chunk_edits([edit(2, 3, "C"), edit(4, 4, "x")])
    spans, changed = partition(source, [hyp, ref])
    assert spans == [(0, 1), (1, 3), (3, 4), (4, 4), (4, 5)]
    assert changed[0] == {1: ["B", "c"]}  # the hypothesis's edit widened to the merged chunk
    assert changed[1] == {1: ["b", "C"], 3: ["x"]}  # a dummy chunk for the insertion


def test_demo_partition_matches_the_cleme_readme():
    """The 13 chunks of the demo's second sentence, as CLEME's README draws them."""
    dataset = Dataset.from_files(m2=CLEME_DATA / "demo.errant")
    hyp = read_hypothesis(dataset, CLEME_DATA / "demo-AMU.errant", "AMU")
    source = dataset.sources[1]
    targets = [chunk_edits(hyp.edits[1])] + [chunk_edits(r.edits[1]) for r in dataset.references]
    spans, changed = partition(source, targets)
    assert [" ".join(source[a:b]) for a, b in spans] == [
        "When we are",
        "diagonosed out",
        "with",
        "",
        "certain genetic",
        "disease",
        ", are we",
        "suppose",
        "to disclose",
        "this result",
        "to",
        "our",
        "relatives ?",
    ]

    def text(target):
        return [" ".join(changed[target].get(k, source[a:b])) for k, (a, b) in enumerate(spans)]

    assert text(1)[1:6] == ["diagnosed", "with", "", "certain genetic", "diseases"]
    assert text(2)[1:8] == ["diagnosed", "with", "a", "certain genetic", "disease", ", are we", "supposed"]
    assert text(0)[9:12] == ["the results", "to", "their"]
