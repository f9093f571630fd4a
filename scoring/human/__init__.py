"""Human rankings of systems from relative rankings (Appraise XML, SEEDA's judgments).

    from scoring.human import rank_systems, write_judgments_xml
    ranking = rank_systems(read_judgments("judgments_sent.xml"), bootstrap=1000, seed=0)
    ranking.as_json()  # {"systems": {...}, "clusters": [...], "agreement": {...}, ...}

Expected Wins (WMT13; Grundkiewicz et al., EMNLP 2015), TrueSkill as WMT14-16 ran it,
95% rank ranges by bootstrap over the pairwise comparisons, clusters, and Cohen's kappa
between and within annotators. ``python -m scoring human`` is the command line.
"""

from .judgments import RankingItem, read_judgments
from .ranking import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MIN_SHARED,
    HumanRanking,
    SystemRanking,
    human_signature,
    rank_systems,
    scheme_scores,
)
from .xml_writer import write_judgments_xml

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "MIN_SHARED",
    "HumanRanking",
    "RankingItem",
    "SystemRanking",
    "human_signature",
    "rank_systems",
    "read_judgments",
    "scheme_scores",
    "write_judgments_xml",
]
