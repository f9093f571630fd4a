"""``python -m scoring human --ratings [NAME=]FILE.csv``: systems by direct assessment.

Each CSV (``annotator,item,system,scale,value``, as a rating campaign exports it) is rated
on its own: per system and scale the mean rating, the mean per-annotator z-score, the
ratings counted, the 95% bootstrap interval over items and the cluster (WMT23's rule, or
``--clusters neighbours``), per scale Krippendorff's alpha (interval, or ``--alpha-level
ordinal``), between annotators and within each. The same
figures a campaign shows for the same ratings (:mod:`scoring.human.ratings`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from ..errors import InputError, Problem
from ..human.ratings import RatingResults, rate_systems, rating_signature, read_ratings
from .command_line import report_bad_input


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_ratings(name: str, results: RatingResults) -> str:
    lines = [f"== {name}: {results.ratings} ratings, {results.annotators} annotators =="]
    for scale in results.scales:
        lines += [
            f"-- {scale} (alpha {figure(results.agreement[scale])}, within annotators "
            f"{figure(results.consistency.get(scale))}: "
            + ", ".join(f"{a} {figure(v)}" for a, v in results.consistency_by_annotator.get(scale, {}).items())
            + ")",
            f"{'cluster':>7}  {'z':>7}  {'mean':>7}  {'95% interval':>15}  {'n':>5}  system",
        ]
        for system, scales in results.systems.items():
            if scale in scales:
                e = scales[scale]
                low, high = e["interval"] or (math.nan, math.nan)
                interval = f"{low:7.3f}-{high:<7.3f}"
                lines.append(f"{e['cluster']:>7}  {e['z']:+7.3f}  {e['mean']:7.3f}  {interval}  {e['n']:>5}  {system}")
    lines.append(rating_signature(results.alpha, results.rule, results.level))
    return "\n".join(lines)


def rated(path: Path, settings: dict) -> RatingResults:
    try:
        return rate_systems(read_ratings(path), **settings)
    except InputError as exc:
        raise InputError([Problem(p.line, p.message, p.file or str(path)) for p in exc.problems]) from None


def ratings_main(files: list[tuple[str, Path]], as_json: bool, **settings) -> int:
    """Print each file's figures (a table, or JSON keyed by NAME for more than one file);
    ``settings``: :func:`scoring.human.ratings.rate_systems`' ``rule``, ``level``, ``seed``."""
    try:
        results = {name: rated(path, settings) for name, path in files}
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    if as_json:
        output = {name: r.as_json() for name, r in results.items()}
        print(json.dumps(output if len(output) > 1 else next(iter(output.values())), indent=1))
    else:
        print("\n\n".join(format_ratings(name, r) for name, r in results.items()))
    return 0
