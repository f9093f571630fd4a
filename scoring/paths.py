"""Score paths: the dotted address of one number in a system's scores object (``errant.cs.f``).

A system's scores (docs/contracts.md section 2) nest per metric, mode and level; rankings,
tables, exports and score comparisons all address one number by its path. These are the
only functions that walk that nesting.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product
from typing import Any

# Bookkeeping numbers of a scores object, not scores (GoToScorer's reference and pool size).
NOT_SCORES = frozenset({"ref", "pool_size"})
# Keys of per-error-type tables (ERRANT's ``per_type`` and ``per_type_by_mode``): a table
# is read by the per-type page, never ranked by.
TABLE_PREFIX = "per_type"


@dataclass(frozen=True)
class ScorePath:
    """One rankable number: where it is, what to call it, which way is better."""

    path: str
    label: str
    higher_is_better: bool = True

    @property
    def metric(self) -> str:
        return self.path.split(".", 1)[0]


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def value_at(scores: dict, path: str) -> float | None:
    """The number at ``path`` in a scores object, else None."""
    value: Any = scores
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value if is_number(value) else None


def flatten(scores: dict, prefix: str = "") -> dict[str, float]:
    """``{"errant.cs.f": 0.5, ...}``: every score of a nested object, tables and bookkeeping left out."""
    flat: dict[str, float] = {}
    for key, value in scores.items():
        if key.startswith(TABLE_PREFIX) or key in NOT_SCORES:
            continue
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        elif is_number(value):
            flat[f"{prefix}{key}"] = value
    return flat


def without_tables(scores):
    """A scores object without its per-type tables (most of its bytes; the list pages skip them)."""
    if not isinstance(scores, dict):
        return scores
    return {key: without_tables(value) for key, value in scores.items() if not key.startswith(TABLE_PREFIX)}


def expand(*levels: Iterable[str]) -> Iterator[str]:
    """Every dotted path of the product of ``levels``: ``expand(["a"], ["x", "y"])`` -> a.x, a.y."""
    for parts in product(*levels):
        yield ".".join(p for p in parts if p)


# How a path's inner keys read in a column heading.
KEY_LABELS = {"dependent": "dep", "independent": "ind", "corpus": "", "p": "P", "r": "R", "f": "F"}


def path_label(metric_label: str, path: str) -> str:
    """A short column heading: ``errant.cs.f`` -> ``ERRANT cs F``."""
    inner = [KEY_LABELS.get(key, key) for key in path.split(".")[1:]]
    return " ".join([metric_label, *(key for key in inner if key)])
