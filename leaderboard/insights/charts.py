"""The data behind the pages' charts: plain JSON for ``static/leaderboard/charts.js``.

Computed here from what the pages already hold (board rows, per-type tables, a team's
submissions), so the charts show exactly the numbers of the tables next to them and
nothing a table would not show. Pages embed it with ``json_script``.
"""

from __future__ import annotations

from scoring import label

from ..models import MetricResult
from ..standings import metric_value

ISO_F_LEVELS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
PROFILE_TYPES = 15  # most frequent error types drawn in the per-type profile


def system_label(row: dict) -> str:
    return row["system_name"] if row.get("baseline") else f"{row['team']}/{row['system_name']}"


def precision_recall_paths(metric: str, rows: list[dict]) -> tuple[str, str] | None:
    """The P and R beside the ranked score (``errant.cs.f`` -> ``errant.cs.p``, ``.r``),
    else ERRANT's cs P and R, when the rows have them."""
    prefix = metric.rsplit(".", 1)[0] if "." in metric else metric
    for base in (prefix, "errant.cs"):
        p, r = f"{base}.p", f"{base}.r"
        if any(
            metric_value(row["scores"], p) is not None and metric_value(row["scores"], r) is not None for row in rows
        ):
            return p, r
    return None


def iso_f_curve(level: float, beta: float, steps: int = 60) -> list[dict]:
    """Points (P, R) with F-beta = ``level``: R = F b^2 P / ((1 + b^2) P - F)."""
    b2 = beta * beta
    points = []
    p_min = level / (1 + b2 * (1 - level))  # where the curve meets R = 1
    for k in range(steps + 1):
        p = p_min + (1 - p_min) * k / steps
        denominator = (1 + b2) * p - level
        if denominator <= 0:
            continue
        r = level * b2 * p / denominator
        if 0 <= r <= 1:
            points.append({"x": round(p, 4), "y": round(r, 4)})
    return points


def board_chart(rows: list[dict], metric: str, beta: float) -> dict:
    """The ranked score as bars, coloured by tie group, and the P/R scatter with F-beta
    iso-lines (Dahlmeier & Ng's and ERRANT's F0.5 trades P for R along these curves)."""
    bars = [
        {
            "name": system_label(r),
            "value": r["value"],
            "group": (r.get("tie") or {}).get("group"),
            "baseline": r["baseline"],
            "rank": r["rank"],
        }
        for r in rows
        if r["value"] is not None
    ]
    chart: dict = {"metric": metric, "label": label(metric), "bars": bars}
    paths = precision_recall_paths(metric, rows)
    if paths:
        p, r = paths
        chart["pr"] = {
            "p_label": label(p),
            "r_label": label(r),
            "beta": beta,
            "points": [
                {
                    "name": system_label(row),
                    "x": metric_value(row["scores"], p),
                    "y": metric_value(row["scores"], r),
                    "baseline": row["baseline"],
                }
                for row in rows
                if metric_value(row["scores"], p) is not None and metric_value(row["scores"], r) is not None
            ],
            "iso": [{"level": level, "points": iso_f_curve(level, beta)} for level in ISO_F_LEVELS],
        }
    return chart


def type_profile(table: dict) -> dict:
    """Correction F per error type for each compared system (the most frequent types)."""
    rows = [row for row in table.get("rows", []) if any(cell.get("cs") for cell in row["cells"])][:PROFILE_TYPES]
    return {
        "types": [row["type"] for row in rows],
        "systems": [
            {"name": name, "f": [(row["cells"][k].get("cs") or {}).get("f") for row in rows]}
            for k, name in enumerate(table.get("systems", []))
        ],
    }


def score_history(submissions: list, metric: str, scores: dict[int, dict] | None = None) -> dict:
    """One team's ``metric`` over its scored submissions, oldest first; ``scores``: each
    submission's scores when they are not its own stored results (an upload of several
    corpora: its entry's macro average)."""
    scored = sorted((s for s in submissions if s.status == "scored"), key=lambda s: (s.created_at, s.pk))
    metric_name = metric.split(".", 1)[0]
    if scores is None:
        stored = dict(
            MetricResult.objects.filter(submission__in=scored, metric=metric_name).values_list(
                "submission_id", "scores"
            )
        )
        scores = {pk: {metric_name: value} for pk, value in stored.items()}
    points = []
    for s in scored:
        value = metric_value(scores.get(s.pk, {}), metric)
        if value is not None:
            points.append({"id": s.pk, "name": s.system_name, "created_at": s.created_at.isoformat(), "value": value})
    return {"metric": metric, "label": label(metric), "points": points}
