"""GEC metric library: ERRANT, GoToScorer, CLEME, CLEME2.0, USIM and GLEU on one shared core.

Pure Python (no Django). The public API below is what the platform and the CLI use::

    dataset = Dataset.from_files(source="src.txt", refs=["ref0.txt", "ref1.txt"])
    hyp = read_hypothesis(dataset, "system.txt", "my-system")
    result = score_systems(dataset, [hyp], ["errant"])

Languages (docs/languages.md): ``Dataset.from_files(..., lang="uk", pipeline="tokens")``;
the dataset remembers both (also when saved), so hypotheses and metrics use them.
``pipelines.languages()``, ``available_pipelines(lang)``, ``default_pipeline(lang)``,
``pipeline_signature(lang, pipeline)``; ``unsupported_reason(metric, lang, pipeline,
options)`` says why a metric cannot serve a language (None when it can).

Score paths (``errant.cs.f``) are described by the metrics themselves: ``valid_paths()``,
``describe(path)`` (label, direction; ``UnknownPath`` lists the valid ones), ``score_paths()``,
``headline_scores()``, ``default_path()``, ``is_count()``, ``can_resample()``.
"""

from . import pipelines
from .dataset import Dataset, Reference
from .errant.edits import Edit, apply_edits
from .errors import InputError, Problem
from .gotoscorer.sampled import ChunkLayout
from .hypothesis import M2_SUFFIXES, Hypothesis, hypothesis_from_lines, read_hypothesis
from .limits import DEFAULT_LIMITS, MAX_LINE_TOKENS, Limits
from .metrics import REGISTRY
from .metrics.base import PerTypeTable, PoolCounts, Resampling
from .options import ScoringOptions
from .paths import TABLE_PREFIX, ScorePath, flatten, value_at, without_tables
from .pipelines import (
    UnknownLanguage,
    UnknownPipeline,
    available_pipelines,
    default_pipeline,
    languages,
    pipeline_signature,
)
from .readers import M2Corpus, read_m2, read_text
from .registry import (
    UnknownPath,
    by_default,
    can_resample,
    default_path,
    default_paths,
    describe,
    headline_scores,
    is_count,
    is_reference_free,
    known_metric_of,
    label,
    lanes,
    metric_of,
    metrics_named,
    model_work,
    per_type_metrics,
    pooled_sampled_scores,
    resampled_paths,
    resampling,
    score_paths,
    unsupported_metrics,
    unsupported_reason,
    valid_paths,
)
from .scorer import (
    HEADLINE_SCORES,
    ScoringResult,
    build_metrics,
    metric_names,
    score_systems,
    scores_from_statistics,
    signature,
    system_statistics,
)
from .version import __version__  # noqa: F401

__all__ = [
    "Dataset",
    "Reference",
    "Edit",
    "apply_edits",
    "M2Corpus",
    "InputError",
    "Problem",
    "M2_SUFFIXES",
    "Hypothesis",
    "hypothesis_from_lines",
    "read_hypothesis",
    "DEFAULT_LIMITS",
    "MAX_LINE_TOKENS",
    "Limits",
    "REGISTRY",
    "by_default",
    "is_reference_free",
    "lanes",
    "model_work",
    "ScoringOptions",
    "read_m2",
    "read_text",
    "ScoringResult",
    "HEADLINE_SCORES",
    "build_metrics",
    "metric_names",
    "metrics_named",
    "score_systems",
    "scores_from_statistics",
    "signature",
    "system_statistics",
    # the registry: metrics describe themselves
    "PerTypeTable",
    "ChunkLayout",
    "PoolCounts",
    "Resampling",
    "ScorePath",
    "UnknownPath",
    "can_resample",
    "default_path",
    "default_paths",
    "describe",
    "headline_scores",
    "is_count",
    "known_metric_of",
    "label",
    "metric_of",
    "per_type_metrics",
    "pooled_sampled_scores",
    "resampled_paths",
    "resampling",
    "score_paths",
    "valid_paths",
    "unsupported_reason",
    "unsupported_metrics",
    # languages and text pipelines
    "pipelines",
    "languages",
    "available_pipelines",
    "default_pipeline",
    "pipeline_signature",
    "UnknownLanguage",
    "UnknownPipeline",
    # score paths in nested scores objects
    "TABLE_PREFIX",
    "flatten",
    "value_at",
    "without_tables",
]
