"""The two-step metric shape (sacreBLEU's): expensive per-sentence statistics, cheap scores.

``statistics()`` turns one system's output into JSON-serialisable per-sentence numbers
(the platform stores them); ``score()`` turns stored statistics into the system's JSON
object of docs/contracts.md section 2, without touching spaCy again. A pool metric
(GoToScorer) scores every member at once, since each weight depends on all of them.

A metric also describes itself, so that the CLI table, the leaderboard's columns and
menu, exports, per-type pages and tie groups read the registry instead of lists of
their own. Every descriptor is optional: a metric that declares only ``name``,
``statistics`` and ``score`` still scores, and is listed under its name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..dataset import Dataset
from ..hypothesis import Hypothesis
from ..options import ScoringOptions
from ..paths import ScorePath

REGISTRY: dict[str, type[Metric]] = {}


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator adding a metric to :data:`REGISTRY` under its ``name``."""
    REGISTRY[cls.name] = cls
    return cls


@dataclass(frozen=True)
class PerTypeTable:
    """Where a metric keeps its per-error-type table in a system's scores object.

    ``scores[key][level][type]`` is ``{"tp", "fp", "fn", "p", "r", "f"}`` for each of
    ``levels``; ``scores[detection_key][mode][level][type]`` the same for the detection
    modes (ERRANT's ds/dt), whose overall counts are ``scores[mode]``. ``overall`` is the
    key of the overall correction counts (``"cs"``; ``""`` = the metric's own object).
    """

    key: str = "per_type"
    levels: tuple[str, ...] = ("1",)
    default_level: str = "1"
    overall: str = ""
    detection_key: str | None = None
    detection_modes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resampling:
    """Per-sentence sufficient statistics as a matrix, and the corpus scores of summed rows.

    ``counts`` has one row per sentence. ``scores`` maps summed rows of shape (m, k) to
    ``{path: m values}`` for the metric's :attr:`Metric.resampled` paths, so a bootstrap
    sample (sentence frequencies times ``counts``) is one matrix product (Koehn, 2004).
    """

    counts: np.ndarray
    scores: Callable[[np.ndarray], dict[str, np.ndarray]]

    def corpus(self, indices: Sequence[int] | np.ndarray | None = None) -> dict[str, float]:
        """The scores of the sentences at ``indices`` (repeats count; None = every sentence)."""
        rows = self.counts if indices is None else self.counts[np.asarray(indices, dtype=int)]
        return {path: float(values[0]) for path, values in self.scores(rows.sum(axis=0, keepdims=True)).items()}


@dataclass(frozen=True)
class PoolCounts:
    """What a pool metric's weights depend on: per gold chunk how many members got it
    right (n_i), and the pool size N. Bootstrap samples draw sentences, not systems, so
    inside a sample these stay those of the whole pool."""

    n: np.ndarray
    size: int


class Metric:
    name: ClassVar[str]
    pooled: ClassVar[bool] = False

    # -- self-description (all optional) -------------------------------------------------
    label: ClassVar[str] = ""  # readable name; "" = ``name``
    headline: ClassVar[tuple[ScorePath, ...]] = ()  # what a ranking table shows first, in order
    default_path: ClassVar[str] = ""  # the ranking default; "" = the first headline path
    count_keys: ClassVar[frozenset[str]] = frozenset()  # leaf keys that are counts, not fractions
    lower_is_better: ClassVar[frozenset[str]] = frozenset()  # leaf keys where less is better (FP, ...)
    per_type: ClassVar[PerTypeTable | None] = None
    resampled: ClassVar[tuple[str, ...]] = ()  # paths :meth:`resampling` can recompute
    # A reference-free figure (Scribendi, SOME, IMPARA) stands in a column group of its own and
    # is never a task's default headline: outputs built to fool it exist (docs/metrics.md).
    reference_free: ClassVar[bool] = False
    # Where its jobs run: "lm" = it runs a language model, so jobs of a task that asks for it go
    # to GEC_LM_QUEUE (a GPU worker's); "" = the task's usual queue.
    lane: ClassVar[str] = ""
    # The per-sentence download's columns of this metric (shown as "<name> <column>"), filled
    # by :meth:`sentence_rows`; none: the metric has no per-sentence numbers to show.
    sentence_columns: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def display_name(cls) -> str:
        return cls.label or cls.name

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        """Every rankable path of this metric's scores object (default: the headline ones)."""
        return tuple(p.path for p in cls.headline)

    @classmethod
    def model_work(cls, options: ScoringOptions) -> float:
        """Gigabytes of model weights each token of a file goes through, every model and
        pass together (tokens times this sizes an LM metric's time budget and queue); 0 =
        no language model. Reads the settings only, never loads the model."""
        return 0.0

    @classmethod
    def ranking_path(cls) -> str:
        return cls.default_path or (cls.headline[0].path if cls.headline else "")

    # -- the two steps ----------------------------------------------------------------------
    def __init__(self, options: ScoringOptions):
        self.options = options

    def prepare(self, dataset: Dataset) -> None:
        """Cache what depends on the dataset only (called once before statistics)."""

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        raise NotImplementedError

    def score(self, statistics: dict) -> dict:
        raise NotImplementedError

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        """One row of :attr:`sentence_columns` per source line, from stored statistics
        (a class method: the platform's download builds no metric for it)."""
        return []

    def score_pool(self, statistics: dict[str, dict]) -> dict[str, dict]:
        """Scores of every pool member; independent metrics score each alone."""
        return {name: self.score(stats) for name, stats in statistics.items()}

    def signature(self) -> str:
        """This metric's settings, appended to the common signature."""
        return self.name

    @classmethod
    def unsupported_reason(cls, pipeline, options: ScoringOptions) -> str | None:
        """Why this metric cannot score sentences of this text pipeline
        (:class:`scoring.pipelines.Pipeline`: its language, what it annotates), shown
        instead of a wrong number; None when it can."""
        return None

    # -- resampling (bootstrap, tie groups) -------------------------------------------------
    def resampling(self, statistics: dict) -> Resampling | None:
        """Stored statistics as a :class:`Resampling`; None when the metric cannot resample."""
        return None

    def pool_counts(self, statistics: Sequence[dict]) -> PoolCounts | None:
        """A pool metric: the pool that every member's ``statistics`` make together."""
        return None

    def member_resampling(self, statistics: dict, pool: PoolCounts) -> Resampling | None:
        """A pool metric: one member's statistics as a :class:`Resampling` inside ``pool``."""
        return None

    def members_sampled(
        self, path: str, pool: PoolCounts, layout, modified, correct, *, samples: int, seed: int
    ) -> list:
        """A pool metric: every member's bootstrap-sampled scores of ``path`` at once, from
        packed outcome bits (``scoring.registry.pooled_sampled_scores``)."""
        raise NotImplementedError(f"{self.name} is not a pool metric")

    def resample(self, statistics: dict, indices: Sequence[int]) -> dict[str, float]:
        """``{path: score}`` of the :attr:`resampled` paths on the sentences at ``indices``
        (with repetition, as a bootstrap sample draws them); ``{}`` when not resamplable."""
        resampling = self.resampling(statistics)
        return {} if resampling is None else resampling.corpus(indices)
