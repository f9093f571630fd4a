"""Window analysis (Kobayashi et al., TACL 2024, section 5.3; ``utils/window_analysis_system.py``).

Systems are sorted by human score, best first, and the correlation is computed over
every run of ``size`` consecutive systems: it shows whether a metric still tells close,
strong systems apart, where shared-task rankings are decided.
"""

from __future__ import annotations

import numpy as np

from .correlation import number, pearson, spearman


def window_correlations(metric: np.ndarray, human: np.ndarray, size: int) -> list[dict]:
    """``[{"from": 1, "to": size, "pearson", "spearman"}, ...]``, ranks 1-based by human score."""
    order = np.argsort(-np.asarray(human, dtype=float), kind="stable")
    metric, human = np.asarray(metric, dtype=float)[order], np.asarray(human, dtype=float)[order]
    rows = []
    for start in range(len(order) - size + 1):
        window = slice(start, start + size)
        rows.append(
            {
                "from": start + 1,
                "to": start + size,
                "pearson": number(pearson(metric[window], human[window])[0]),
                "spearman": number(spearman(metric[window], human[window])[0]),
            }
        )
    return rows
