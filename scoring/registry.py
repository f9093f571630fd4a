"""Questions about score paths, answered from what the registered metrics declare.

The platform and the CLI ask these instead of keeping lists of their own: which paths
exist (:func:`valid_paths`, an unknown ``?metric=`` is answered with them), what a path
is called and which way is better (:func:`describe`), what a table shows first
(:func:`headline_scores`), what to rank by (:func:`default_path`), which numbers are
counts (:func:`is_count`) and which can be bootstrapped (:func:`can_resample`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .metrics.base import REGISTRY, Metric, PoolCounts, Resampling
from .options import ScoringOptions
from .paths import ScorePath, path_label


class UnknownPath(ValueError):
    """A path no registered metric has; the message lists the valid ones."""

    def __init__(self, path: str, valid: list[str]):
        self.path, self.valid = path, valid
        super().__init__(f"unknown score path {path!r}; valid paths: {', '.join(valid)}")


def metrics_named(metric_names: Iterable[str] | None = None) -> list[type[Metric]]:
    """The registered metric classes among ``metric_names`` (by default every one a task
    gets without naming it: :func:`by_default`), in registry order."""
    wanted = None if metric_names is None else set(metric_names)
    return [cls for name, cls in REGISTRY.items() if (by_default(cls) if wanted is None else name in wanted)]


def by_default(cls: type[Metric]) -> bool:
    """Whether a task or the CLI that names no metrics gets this one: not a metric with a
    lane of its own (a language model the organizer must name and a worker must hold)."""
    return not cls.lane


def is_reference_free(path: str) -> bool:
    """A reference-free figure (Scribendi, SOME, IMPARA): a column group of its own."""
    cls = metric_of(path)
    return cls is not None and cls.reference_free


def lanes(metric_names: Iterable[str]) -> set[str]:
    """The lanes (e.g. ``"lm"``) that the metrics ``metric_names`` need a worker of."""
    return {cls.lane for cls in metrics_named(metric_names) if cls.lane}


def model_work(metric_names: Iterable[str], options: ScoringOptions | None = None) -> float:
    """GB of model weights each token goes through for these metrics (:meth:`Metric.model_work`)."""
    return sum(cls.model_work(options or ScoringOptions()) for cls in metrics_named(metric_names) if cls.lane)


def metric_of(path: str) -> type[Metric] | None:
    return REGISTRY.get(path.split(".", 1)[0])


def known_metric_of(path: str) -> type[Metric]:
    """:func:`metric_of` for a path already checked against the registry (a board's metric)."""
    cls = metric_of(path)
    if cls is None:
        raise ValueError(f"no metric in the registry scores {path!r}")
    return cls


def headline_scores(metric_names: Iterable[str] | None = None) -> list[ScorePath]:
    """Every metric's headline paths, in registry order."""
    return [p for cls in metrics_named(metric_names) for p in cls.headline]


def valid_paths(metric_names: Iterable[str] | None = None) -> list[str]:
    """Every path a leaderboard can be ranked by: headline paths first, then the rest."""
    classes = metrics_named(metric_names)
    first = [p.path for cls in classes for p in cls.headline]
    rest = [path for cls in classes for path in cls.score_paths() if path not in first]
    return first + rest


def describe(path: str) -> ScorePath:
    """Label and direction of any valid path; :class:`UnknownPath` otherwise."""
    cls = metric_of(path)
    if cls is None or path not in cls.score_paths():
        raise UnknownPath(path, valid_paths())
    for headline in cls.headline:
        if headline.path == path:
            return ScorePath(path, path_label(cls.display_name(), path), headline.higher_is_better)
    return ScorePath(path, path_label(cls.display_name(), path), path.rsplit(".", 1)[-1] not in cls.lower_is_better)


def score_paths(metric_names: Iterable[str] | None = None) -> list[ScorePath]:
    """:func:`describe` of every valid path, in :func:`valid_paths` order."""
    return [describe(path) for path in valid_paths(metric_names)]


def label(path: str) -> str:
    """A column heading for ``path``; an unregistered metric's path reads as itself."""
    cls = metric_of(path)
    return path_label(cls.display_name(), path) if cls is not None else path


def default_paths(metric_names: Iterable[str] | None = None) -> list[str]:
    """Each metric's ranking path, in registry order, the reference-free ones last (an
    export's usual columns)."""
    classes = sorted(metrics_named(metric_names), key=lambda cls: cls.reference_free)  # stable
    return [cls.ranking_path() for cls in classes if cls.ranking_path()]


def default_path(metric_names: Iterable[str] | None = None) -> str:
    """What a board ranks by when nothing is asked: the first metric's ranking path, never
    a reference-free one while the task has another (outputs built to fool Scribendi,
    SOME and IMPARA exist: docs/metrics.md)."""
    return next(iter(default_paths(metric_names)), "")


def per_type_metrics(metric_names: Iterable[str] | None = None) -> list[type[Metric]]:
    """The metrics that keep a per-error-type table, in registry order."""
    return [cls for cls in metrics_named(metric_names) if cls.per_type is not None]


def is_count(path: str) -> bool:
    """A count (TP, FP, ...), printed as an integer, not as a percentage."""
    cls = metric_of(path)
    return cls is not None and path.rsplit(".", 1)[-1] in cls.count_keys


def can_resample(path: str) -> bool:
    """Whether the score at ``path`` can be recomputed from per-sentence statistics."""
    cls = metric_of(path)
    return cls is not None and path in cls.resampled


def resampled_paths(metric_names: Iterable[str] | None = None) -> list[str]:
    """Every path a paired bootstrap (and so a tie group) can be computed for."""
    return [path for cls in metrics_named(metric_names) for path in cls.resampled]


def unsupported_reason(
    metric: str, lang: str = "en", pipeline: str | None = None, options: ScoringOptions | None = None
) -> str | None:
    """Why ``metric`` cannot score a dataset of this language and text pipeline (shown
    instead of a number), or None when it can. ``pipeline=None``: the language's default."""
    from .pipelines import get_pipeline

    cls = REGISTRY.get(metric)
    if cls is None:
        raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(REGISTRY)}")
    return cls.unsupported_reason(get_pipeline(lang, pipeline), options or ScoringOptions())


def unsupported_metrics(
    metric_names: Iterable[str], lang: str = "en", pipeline: str | None = None, options: ScoringOptions | None = None
) -> dict[str, str]:
    """``{metric: reason}`` for those of ``metric_names`` that cannot serve this language and pipeline."""
    found = {name: unsupported_reason(name, lang, pipeline, options) for name in metric_names}
    return {name: reason for name, reason in found.items() if reason}


def resampling(
    path: str, statistics: dict, options: ScoringOptions, pool: PoolCounts | None = None
) -> Resampling | None:
    """The stored ``statistics`` of the metric of ``path`` as a :class:`Resampling`; None
    when these statistics cannot give that path (e.g. CLEME2.0 without similarity weights,
    or a pool metric without its ``pool``)."""
    cls = metric_of(path)
    if cls is None or path not in cls.resampled:
        return None
    metric = cls(options)
    if cls.pooled:
        found = None if pool is None else metric.member_resampling(statistics, pool)
    else:
        found = metric.resampling(statistics)
    if found is None or path not in found.scores(np.zeros((1, found.counts.shape[1]))):
        return None
    return found


def pooled_sampled_scores(
    path: str, options: ScoringOptions, pool: PoolCounts, layout, modified, correct, *, samples: int, seed: int
) -> list | None:
    """Every member's :class:`~scoring.bootstrap.SampledScores` of a pool metric's ``path``,
    from packed outcome bits (one row per member) and the chunks' ``layout``
    (:class:`scoring.gotoscorer.sampled.ChunkLayout`): :func:`resampling` then
    ``sampled_scores`` of each, in one pass. None when ``path`` is not such a path."""
    cls = metric_of(path)
    if cls is None or not cls.pooled or path not in cls.resampled:
        return None
    return cls(options).members_sampled(path, pool, layout, modified, correct, samples=samples, seed=seed)
