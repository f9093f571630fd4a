"""A prepared dataset saved and loaded again scores exactly as the original, without
re-annotating its references."""

from scoring import Dataset, read_hypothesis, score_systems
from tests.conftest import SUBSET_OUTPUTS


def test_round_trip_keeps_references_and_parses(seeda_subset, tmp_path):
    path = tmp_path / "dataset.zip"
    seeda_subset.save(path)
    loaded = Dataset.load(path)
    assert loaded.sources == seeda_subset.sources
    assert [r.edits for r in loaded.references] == [r.edits for r in seeda_subset.references]
    assert [r.tokens for r in loaded.references] == [r.tokens for r in seeda_subset.references]
    original = [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for d in seeda_subset.source_docs[:50] for t in d]
    restored = [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for d in loaded.source_docs[:50] for t in d]
    assert original == restored


def test_loaded_dataset_scores_identically(seeda_subset, seeda_hypotheses):
    loaded = Dataset.from_bytes(seeda_subset.to_bytes())
    hyp = read_hypothesis(loaded, SUBSET_OUTPUTS / "BART.txt", "BART")
    assert hyp.edits == seeda_hypotheses["BART"].edits
    assert (
        score_systems(loaded, [hyp], ["errant"]).systems
        == score_systems(seeda_subset, [seeda_hypotheses["BART"]], ["errant"]).systems
    )
