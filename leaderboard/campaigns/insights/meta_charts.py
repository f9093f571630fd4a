"""Geometry of the meta-evaluation page's two SVG charts, drawn server-side (no script, no CDN).

* intervals: per score path, the correlation as a dot and its 95% bootstrap interval as
  a line, on one axis from -1 to 1;
* windows: per score path, the correlation over each window of systems ranked by
  humans (Kobayashi et al., TACL 2024, section 5.3), one line per path.
"""

from __future__ import annotations

from scoring.registry import label

WIDTH, LEFT, RIGHT, TOP, ROW = 640, 210, 20, 24, 20
PLOT_HEIGHT = 220
TICKS = (-1.0, -0.5, 0.0, 0.5, 1.0)
COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
)


def x_of(value: float) -> float:
    """A correlation in [-1, 1] as a horizontal position."""
    return round(LEFT + (value + 1) / 2 * (WIDTH - LEFT - RIGHT), 1)


def interval_chart(system: dict, scheme: str, key: str) -> dict:
    """Rows ``{label, y, x, lo, hi}`` for the ``key`` ("pearson"/"spearman") of every path."""
    rows: list[dict] = []
    for path, schemes in system.items():
        entry = schemes.get(scheme)
        if entry is None or entry[key] is None:
            continue
        low, high = entry.get(f"{key}_ci") or (None, None)
        rows.append(
            {
                "label": label(path),
                "y": TOP + len(rows) * ROW + ROW // 2,
                "x": x_of(entry[key]),
                "value": entry[key],
                "lo": None if low is None else x_of(low),
                "hi": None if high is None else x_of(high),
                "low": low,
                "high": high,
            }
        )
    height = TOP + len(rows) * ROW + 10
    return {
        "width": WIDTH,
        "height": height,
        "left": LEFT,
        "top": TOP,
        "bottom": height - 10,
        "rows": rows,
        "ticks": [{"x": x_of(v), "label": f"{v:g}"} for v in TICKS],
    }


def y_of(value: float) -> float:
    return round(TOP + (1 - value) / 2 * PLOT_HEIGHT, 1)


def window_chart(windows: dict, scheme: str, key: str) -> dict:
    """One polyline per path over the windows of ``scheme`` (windows without a figure skipped)."""
    series = {path: schemes.get(scheme) or [] for path, schemes in windows.items()}
    first = next((rows for rows in series.values() if rows), [])
    step = (WIDTH - LEFT - RIGHT) / max(len(first) - 1, 1)

    def x(k: int) -> float:
        return round(LEFT + k * step, 1)

    lines: list[dict] = []
    for path, rows in series.items():
        if rows:
            marks = [(x(i), y_of(r[key])) for i, r in enumerate(rows) if r[key] is not None]
            lines.append(
                {
                    "label": label(path),
                    "colour": COLOURS[len(lines) % len(COLOURS)],
                    "y": TOP + 14 * len(lines),
                    "marks": marks,
                    "points": " ".join(f"{a},{b}" for a, b in marks),
                }
            )
    return {
        "width": WIDTH,
        "height": TOP + PLOT_HEIGHT + 40,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": TOP + PLOT_HEIGHT,
        "lines": lines,
        "size": first[0]["to"] - first[0]["from"] + 1 if first else 0,
        "xticks": [{"x": x(k), "label": f"{r['from']}-{r['to']}"} for k, r in enumerate(first)],
        "yticks": [{"y": y_of(v), "label": f"{v:g}"} for v in TICKS],
    }
