"""Difficulty per error type: mean, std and frequency of the weights of its gold chunks.

The paper's Table 4 (Gotou et al., 2020, section 5.2), as GTS's ``-cat`` prints it
(``toolbox.category_difficulty``): only gold-modified chunks count; cat 1 keeps the
first part of the type (M/R/U), cat 2 drops it (R:VERB:FORM -> VERB:FORM), cat 3 is the
full type. Rows come in order of first appearance, then stably sorted by mean weight,
hardest first; std is the sample standard deviation, 0 for a single chunk.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence

from .chunks import GoldChunk

LEVELS = (1, 2, 3)


def category(etype: str, level: int) -> str:
    """GTS's type at ``level``: 1 = before the first ':', 2 = after it, 3 = whole."""
    if level == 1:
        return etype.split(":")[0]
    if level == 2:
        return ":".join(etype.split(":")[1:])
    return etype


def category_difficulty(gold: Sequence[GoldChunk], weights: Iterable[float], level: int = 3) -> list[dict]:
    """``[{"type", "mean", "std", "freq"}]``, hardest type first."""
    if level not in LEVELS:
        raise ValueError(f"category level must be 1, 2 or 3, not {level}")
    by_type: dict[str, list[float]] = {}
    for chunk, weight in zip(gold, weights, strict=True):
        if chunk.modified:
            by_type.setdefault(category(chunk.type, level), []).append(float(weight))
    rows = [
        {
            "type": etype,
            "mean": statistics.mean(ws),
            "std": statistics.stdev(ws) if len(ws) > 1 else 0.0,
            "freq": len(ws),
        }
        for etype, ws in by_type.items()
    ]
    return sorted(rows, key=lambda row: row["mean"], reverse=True)


def format_difficulty(rows: Sequence[dict]) -> str:
    """The table as GTS prints it, for comparison with its output."""
    lines = ["----- Category Difficulty -----", f"{'Category':10}\tAve.\tStd.\tFreq."]
    lines += [f"{row['type']:10}\t{row['mean']:.2f}\t{row['std']:.2f}\t{row['freq']}" for row in rows]
    return "\n".join(lines)
