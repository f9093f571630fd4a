"""USIM (Choshen and Abend, NAACL 2018): reference-less semantic faithfulness to the source.

The expensive step scores each sentence pair (source, output) and keeps the per-sentence
P, R and USIM; the corpus score is their mean over sentences. Source graphs depend on
the dataset only and are built once per dataset; an output line left unchanged reuses its
source's parse and graph. The graph comes from the spaCy dependency parse unless another
builder of :data:`scoring.usim.GRAPH_BUILDERS` is chosen (``options.extra["usim_graph"]``),
and the signature names it.
"""

from __future__ import annotations

import numpy as np

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..options import ScoringOptions
from ..paths import ScorePath
from .base import Metric, Resampling, register

DEFAULT_GRAPH = "dependency"


@register
class Usim(Metric):
    """Mean sentence USIM, with its precision and recall sides."""

    name = "usim"
    label = "USIM"
    headline = (ScorePath("usim.f", "USIM"),)
    resampled = ("usim.p", "usim.r", "usim.f")
    sentence_columns = ("p", "r", "f")

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        return [list(triple) for triple in statistics["sentences"]]

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return cls.resampled

    @classmethod
    def unsupported_reason(cls, pipeline, options: ScoringOptions) -> str | None:
        """USIM's graphs are built from a dependency parse, which only a full spaCy pipeline makes."""
        if pipeline.has_parser:
            return None
        return (
            f"USIM needs a dependency parse; the {pipeline.name} pipeline of {pipeline.language.name} has none "
            "(only a full spaCy model pipeline parses)"
        )

    def __init__(self, options: ScoringOptions):
        super().__init__(options)
        from ..usim import GRAPH_BUILDERS  # with scipy: only when USIM is asked for

        self.graph_builder = GRAPH_BUILDERS[options.extra.get("usim_graph", DEFAULT_GRAPH)]()
        self._source_graphs: tuple[Dataset, list] | None = None

    def prepare(self, dataset: Dataset) -> None:
        self._source_graphs = (dataset, [self.graph_builder.build(doc) for doc in dataset.source_docs])

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"sentences": [[p, r, f], ...]}``, one triple per source line."""
        if self._source_graphs is None or self._source_graphs[0] is not dataset:
            self.prepare(dataset)
        from ..usim import usim

        assert self._source_graphs is not None  # prepared above
        source_graphs = self._source_graphs[1]
        source_docs = dataset.source_docs
        sentences = []
        for i, doc in enumerate(hypothesis.parses(dataset)):
            output_graph = source_graphs[i] if doc is source_docs[i] else self.graph_builder.build(doc)
            sentences.append(list(usim(source_graphs[i], output_graph)))
        return {"sentences": sentences}

    def score(self, statistics: dict) -> dict:
        sentences = statistics["sentences"]
        n = len(sentences) or 1
        p, r, f = (sum(sentence[k] for sentence in sentences) / n for k in range(3))
        return {"p": p, "r": r, "f": f}

    def resampling(self, statistics: dict) -> Resampling:
        """Per sentence (p, r, f, 1): a sample's score is the mean over its sentences."""
        sentences = np.asarray(statistics["sentences"], dtype=float).reshape(-1, 3)
        counts = np.hstack([sentences, np.ones((len(sentences), 1))])

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            n = np.maximum(totals[:, 3], 1.0)
            return {path: totals[:, k] / n for k, path in enumerate(self.resampled)}

        return Resampling(counts, scores)

    def signature(self) -> str:
        return f"usim|graph:{self.graph_builder.name}"
