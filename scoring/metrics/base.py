"""The two-step metric shape (sacreBLEU's): expensive per-sentence statistics, cheap scores.

``statistics()`` turns one system's output into JSON-serialisable per-sentence numbers
(the platform stores them); ``score()`` turns stored statistics into the system's JSON
object of CONTRACTS.md section 2, without touching spaCy again. A pool metric
(GoToScorer) scores every member at once, since each weight depends on all of them.
"""
from __future__ import annotations

from typing import ClassVar

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..options import ScoringOptions

REGISTRY: dict[str, type[Metric]] = {}


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator adding a metric to :data:`REGISTRY` under its ``name``."""
    REGISTRY[cls.name] = cls
    return cls


class Metric:
    name: ClassVar[str]
    pooled: ClassVar[bool] = False

    def __init__(self, options: ScoringOptions):
        self.options = options

    def prepare(self, dataset: Dataset) -> None:
        """Cache what depends on the dataset only (called once before statistics)."""

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        raise NotImplementedError

    def score(self, statistics: dict) -> dict:
        raise NotImplementedError

    def score_pool(self, statistics: dict[str, dict]) -> dict[str, dict]:
        """Scores of every pool member; independent metrics score each alone."""
        return {name: self.score(stats) for name, stats in statistics.items()}

    def signature(self) -> str:
        """This metric's settings, appended to the common signature."""
        return self.name
