"""The reference X' F1 table of similarity weighting is prepared once per dataset and
saved with it: a dataset loaded from bytes scores identically without computing it."""

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.cleme import similarity_weights
from scoring.metrics.cleme2 import Cleme2
from tests.conftest import CLEME_DATA


def test_a_loaded_dataset_reuses_the_stored_table(monkeypatch):
    metric = Cleme2(ScoringOptions(sim=True))
    prepared = Dataset.from_files(m2=CLEME_DATA / "demo.errant")
    metric.prepare(prepared)
    assert any(key.startswith("cleme2-similarity|") for key in prepared.tables)
    expected = metric.score(
        metric.statistics(prepared, read_hypothesis(prepared, CLEME_DATA / "demo-AMU.errant", "AMU"))
    )

    loaded = Dataset.from_bytes(prepared.to_bytes())
    monkeypatch.setattr(similarity_weights.DatasetSimilarity, "_score", refuse_references, raising=True)
    metric.prepare(loaded)
    monkeypatch.undo()
    assert (
        metric.score(metric.statistics(loaded, read_hypothesis(loaded, CLEME_DATA / "demo-AMU.errant", "AMU")))
        == expected
    )


def refuse_references(self, candidates):
    raise AssertionError("the reference X' table was computed again")
