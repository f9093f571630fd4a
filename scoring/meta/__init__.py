"""Meta-evaluation: how well each metric agrees with human judgments (Kobayashi et al., TACL 2024).

human = HumanJudgments(schemes={"TS_sent": read_human_scores("TS_sent.txt", names)},
                       rankings={"sent": read_judgments("judgments_sent.xml")},
                       line_ids=ids, system_sets=SEEDA_SYSTEM_SETS)
table = meta_evaluate(result.statistics, metrics, human, samples=1000, seed=12345)
"""

from ..human.judgments import RankingItem, read_judgments
from .evaluate import DEFAULT_SAMPLES, DEFAULT_SEED, DEFAULT_WINDOW, meta_evaluate
from .files import named_path, parse_system_sets, read_human_judgments, read_line_ids
from .human import read_human_scores
from .judged import SEEDA_SYSTEM_SETS, SEEDA_SYSTEMS, HumanJudgments, resolve_set
from .resample import headline_paths, resampled_scores

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "DEFAULT_WINDOW",
    "meta_evaluate",
    "read_human_scores",
    "named_path",
    "parse_system_sets",
    "read_human_judgments",
    "read_line_ids",
    "SEEDA_SYSTEM_SETS",
    "SEEDA_SYSTEMS",
    "HumanJudgments",
    "resolve_set",
    "RankingItem",
    "read_judgments",
    "headline_paths",
    "resampled_scores",
]
