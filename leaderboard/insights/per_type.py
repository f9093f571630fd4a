"""Per-error-type comparison of systems: TP/FP/FN/P/R/F per type, for any metric that keeps
a per-type table (its ``Metric.per_type`` says where and at which levels).

For ERRANT these are the tables ``errant_compare -cat N`` prints (Bryant et al., 2017),
read from each submission's stored scores: correction (cs) per type with detection
(ds: span, dt: token) F next to it. System and gold edits are typed alike, by ERRANT's
classifier, even when the gold came with its annotators' own types (M2 gold such as
CoNLL-2014's NUCLE types; :mod:`scoring.metrics.gold_types`); those types are a second,
recall-only view (:func:`annotator_comparison`). Multi-token edits get a row of their own, counted
from the stored CLEME chunk outcomes (Ye et al., 2023, section 3.2: a chunk is the
smallest span on which source, hypothesis and references agree, so a chunk longer than
one token is a multi-token edit), under CLEME's independent assumption.
"""

from __future__ import annotations

from scoring import REGISTRY, PerTypeTable, per_type_metrics
from scoring.errant.score import score_counts
from scoring.metrics.errant import ANNOTATOR_TABLE

DEFAULT_METRIC = "errant"
MULTI_TOKEN = "multi-token"
CHUNK_METRICS = ("cleme2", "cleme")


def table_of(metric: str) -> PerTypeTable:
    """The per-type table a metric declares; ValueError for one without."""
    table = REGISTRY[metric].per_type if metric in REGISTRY else None
    if table is None:
        raise ValueError(
            f"no per-type table for {metric!r}; choose from {', '.join(cls.name for cls in per_type_metrics())}"
        )
    return table


def chosen_table(metric_names: list[str], metric: str, level: str) -> tuple[str, str]:
    """The metric asked for (else the first of ``metric_names`` with a per-type table) and
    the level asked for when that table has it (else the table's default level)."""
    names = [cls.name for cls in per_type_metrics(metric_names)]
    metric = metric if metric in names else (names[0] if names else DEFAULT_METRIC)
    table = table_of(metric)
    return metric, level if level in table.levels else table.default_level


def type_table(scores: dict, level: str, table: PerTypeTable) -> dict[str, dict]:
    """``{type: {"cs": {tp, fp, fn, p, r, f}, <detection mode>: {...}}}`` of one system
    (``cs`` is the correction table of whatever metric)."""
    types: dict[str, dict] = {}
    for etype, counts in scores.get(table.key, {}).get(level, {}).items():
        types.setdefault(etype, {})["cs"] = counts
    for mode in table.detection_modes:
        for etype, counts in scores.get(table.detection_key, {}).get(mode, {}).get(level, {}).items():
            types.setdefault(etype, {})[mode] = counts
    return types


def chunk_length(record: list) -> int:
    """Longest of the chunk's source span, hypothesis and reference targets, in tokens."""
    _, start, end, hyp, refs = record[:5]
    targets = [t for t in [hyp, *refs] if t is not None]
    return max([end - start, *(len(t.split()) for t in targets)])


def multi_token_counts(chunk_statistics: dict, beta: float) -> dict:
    """TP/FP/FN/P/R/F over chunks longer than one token (independent outcomes)."""
    tp = fp = fn = 0
    for records in chunk_statistics["chunks"]:
        for record in records:
            if chunk_length(record) < 2:
                continue
            outcome = record[6]
            tp += outcome == "TP"
            fp += outcome in ("FP_ne", "FP_un")
            fn += outcome == "FN"
    return score_counts(tp, fp, fn, beta)


def comparison(systems: list[dict], level: str, beta: float, metric: str = DEFAULT_METRIC) -> dict:
    """Side-by-side table for ``systems`` = ``[{"name", "scores": the metric's scores, "chunks": stats or None}]``.

    Rows are error types, most frequent in the references first (TP + FN, the largest
    over the systems), then the multi-token row when chunk statistics exist.
    """
    table = table_of(metric)
    if level not in table.levels:
        raise ValueError(f"category level must be one of {', '.join(table.levels)}")
    tables = [type_table(s["scores"], level, table) for s in systems]
    types = {t for table in tables for t in table}

    def frequency(etype: str) -> int:
        return max((t[etype]["cs"]["tp"] + t[etype]["cs"]["fn"]) if "cs" in t.get(etype, {}) else 0 for t in tables)

    rows = [
        {"type": etype, "cells": [table.get(etype, {}) for table in tables], "frequency": frequency(etype)}
        for etype in sorted(types, key=lambda t: (-frequency(t), t))
    ]
    if systems and all(s.get("chunks") for s in systems):
        cells = [{"cs": multi_token_counts(s["chunks"], beta)} for s in systems]
        rows.append(
            {"type": MULTI_TOKEN, "cells": cells, "frequency": max(c["cs"]["tp"] + c["cs"]["fn"] for c in cells)}
        )
    overall = [
        {
            "cs": s["scores"].get(table.overall, {}) if table.overall else s["scores"],
            **{mode: s["scores"].get(mode, {}) for mode in table.detection_modes},
        }
        for s in systems
    ]
    return {
        "metric": metric,
        "metric_label": REGISTRY[metric].display_name(),
        "level": level,
        "levels": table.levels,
        "detection_modes": table.detection_modes,
        "systems": [s["name"] for s in systems],
        "rows": rows,
        "overall": overall,
    }


ANNOTATOR_VIEW = "annotator"
VIEWS = {
    "errant": "ERRANT types (system and gold edits classified alike)",
    ANNOTATOR_VIEW: "Annotators' own types (recall only)",
}


def has_annotator_types(systems: list[dict]) -> bool:
    """Whether the systems' scores keep the recall table of the gold's own types."""
    return bool(systems) and all(ANNOTATOR_TABLE in s["scores"] for s in systems)


def annotator_comparison(systems: list[dict]) -> dict:
    """Recall per type of the gold's annotators (systems' edits carry no such type, so
    there is no precision): ``{"systems", "rows": [{"type", "cells": [{"tp", "fn", "r"}]}]}``,
    most frequent type first."""
    tables = [s["scores"].get(ANNOTATOR_TABLE, {}) for s in systems]
    types = {t for table in tables for t in table}

    def frequency(etype: str) -> int:
        return max((t[etype]["tp"] + t[etype]["fn"]) if etype in t else 0 for t in tables)

    rows = [
        {"type": etype, "cells": [t.get(etype, {}) for t in tables], "frequency": frequency(etype)}
        for etype in sorted(types, key=lambda t: (-frequency(t), t))
    ]
    return {
        "view": ANNOTATOR_VIEW,
        "view_label": VIEWS[ANNOTATOR_VIEW],
        "systems": [s["name"] for s in systems],
        "rows": rows,
    }
