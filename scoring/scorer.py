"""Score systems against a dataset with any set of registered metrics.

The platform calls :func:`system_statistics` once per upload and stores the result;
rankings, re-weighting and bootstrap then call :func:`scores_from_statistics` on stored
statistics. The CLI calls :func:`score_systems`, which is those two in a row.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .dataset import Dataset
from .hypothesis import Hypothesis
from .metrics.base import REGISTRY, Metric
from .nlp import errant_version
from .options import ScoringOptions
from .pipelines import pipeline_signature
from .registry import headline_scores, metrics_named, unsupported_metrics
from .version import __version__

# (label, path) of every metric's headline scores, as the registry declares them; kept
# for callers of the list form (:func:`scoring.registry.headline_scores` is the source).
HEADLINE_SCORES = [(p.label, p.path) for p in headline_scores()]


def metric_names(requested: Iterable[str] | None = None) -> list[str]:
    """Validated metric names in registry order; by default every registered one but those
    with a lane of their own (a language model), which are named to be run."""
    available = list(REGISTRY)
    if requested is None:
        return [cls.name for cls in metrics_named()]
    requested = [m.strip() for m in requested if m.strip()]
    unknown = [m for m in requested if m not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; choose from {', '.join(available)}")
    return [m for m in available if m in requested]


def build_metrics(names: Sequence[str], options: ScoringOptions) -> list[Metric]:
    return [REGISTRY[name](options) for name in names]


def signature(metrics: Sequence[Metric], options: ScoringOptions, dataset: Dataset | None = None) -> str:
    """``scoring:<v>|errant:<v>|<text pipeline>|beta:..|nrefs:..|<metric settings>``.

    The text pipeline's part (:func:`scoring.pipelines.pipeline_signature`) names its
    versions and data, the language and the pipeline, e.g.
    ``spacy:3.8.7|model:en_core_web_sm-3.8.0|lang:en|pipeline:full|types:errant``; without
    a dataset, English ``full``'s.
    """
    text = dataset.signature() if dataset is not None else pipeline_signature("en")
    parts = [f"scoring:{__version__}", f"errant:{errant_version()}", text, f"beta:{options.beta}"]
    if dataset is not None:
        parts.append(f"nrefs:{dataset.n_references}")
    parts.extend(m.signature() for m in metrics)
    return "|".join(parts)


def system_statistics(dataset: Dataset, hypothesis: Hypothesis, metrics: Sequence[Metric]) -> dict[str, dict]:
    """The expensive step for one system: per-sentence statistics of every metric."""
    return {metric.name: metric.statistics(dataset, hypothesis) for metric in metrics}


def scores_from_statistics(statistics: dict[str, dict[str, dict]], metrics: Sequence[Metric]) -> dict[str, dict]:
    """The cheap step: ``{system: {metric: scores}}`` from ``{system: {metric: stats}}``.

    Pool metrics see every system given, so the systems given are the pool.
    """
    systems: dict[str, dict] = {name: {} for name in statistics}
    for metric in metrics:
        per_system = {name: stats[metric.name] for name, stats in statistics.items() if metric.name in stats}
        for name, scores in metric.score_pool(per_system).items():
            systems[name][metric.name] = scores
    return systems


@dataclass
class ScoringResult:
    signature: str
    n_sentences: int
    n_references: int
    systems: dict[str, dict]
    statistics: dict[str, dict[str, dict]]
    unsupported: dict[str, str] = field(default_factory=dict)  # metric -> why it cannot serve this language/pipeline

    def as_json(self) -> dict:
        """The object ``python -m scoring --json`` prints (docs/contracts.md section 2), with
        ``unsupported`` (metric -> reason) when a metric asked for could not serve."""
        found = {
            "signature": self.signature,
            "n_sentences": self.n_sentences,
            "n_references": self.n_references,
            "systems": self.systems,
        }
        if self.unsupported:
            found["unsupported"] = self.unsupported
        return found


def score_systems(
    dataset: Dataset,
    hypotheses: Sequence[Hypothesis],
    metrics: Iterable[str] | None = None,
    options: ScoringOptions | None = None,
) -> ScoringResult:
    """Score every hypothesis with every metric that can serve the dataset's language and
    pipeline (the others are listed in ``unsupported`` with the reason); pool metrics pool
    all of the hypotheses."""
    options = options or ScoringOptions()
    names = metric_names(metrics)
    unsupported = unsupported_metrics(names, dataset.lang, dataset.pipeline, options)
    built = build_metrics([name for name in names if name not in unsupported], options)
    for metric in built:
        metric.prepare(dataset)
    statistics = {h.name: system_statistics(dataset, h, built) for h in hypotheses}
    systems = scores_from_statistics(statistics, built)
    return ScoringResult(
        signature(built, options, dataset), len(dataset), dataset.n_references, systems, statistics, unsupported
    )
