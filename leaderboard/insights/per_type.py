"""Per-error-type comparison of systems: ERRANT TP/FP/FN/P/R/F per type at cat 1, 2 or 3.

The tables are the ones ERRANT's ``errant_compare -cat N`` prints (Bryant et al., 2017),
read from each submission's stored scores: correction (cs) per type with detection
(ds: span, dt: token) F next to it. Multi-token edits get a row of their own, counted
from the stored CLEME chunk outcomes (Ye et al., 2023, section 3.2: a chunk is the
smallest span on which source, hypothesis and references agree, so a chunk longer than
one token is a multi-token edit), under CLEME's independent assumption.
"""
from __future__ import annotations

from scoring.metrics.errant import score_counts

LEVELS = ("1", "2", "3")
DETECTION_MODES = ("ds", "dt")
MULTI_TOKEN = "multi-token"
CHUNK_METRICS = ("cleme2", "cleme")


def type_table(errant_scores: dict, level: str) -> dict[str, dict]:
    """``{type: {"cs": {tp, fp, fn, p, r, f}, "ds": {...}, "dt": {...}}}`` of one system."""
    table: dict[str, dict] = {}
    for etype, counts in errant_scores.get("per_type", {}).get(level, {}).items():
        table.setdefault(etype, {})["cs"] = counts
    for mode in DETECTION_MODES:
        for etype, counts in errant_scores.get("per_type_by_mode", {}).get(mode, {}).get(level, {}).items():
            table.setdefault(etype, {})[mode] = counts
    return table


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


def comparison(systems: list[dict], level: str, beta: float) -> dict:
    """Side-by-side table for ``systems`` = ``[{"name", "errant": scores, "chunks": stats or None}]``.

    Rows are error types, most frequent in the references first (TP + FN, the largest
    over the systems), then the multi-token row when chunk statistics exist.
    """
    if level not in LEVELS:
        raise ValueError(f"category level must be one of {', '.join(LEVELS)}")
    tables = [type_table(s["errant"], level) for s in systems]
    types = {t for table in tables for t in table}

    def frequency(etype: str) -> int:
        return max((t[etype]["cs"]["tp"] + t[etype]["cs"]["fn"]) if "cs" in t.get(etype, {}) else 0 for t in tables)

    rows = [
        {"type": etype, "cells": [table.get(etype, {}) for table in tables], "frequency": frequency(etype)}
        for etype in sorted(types, key=lambda t: (-frequency(t), t))
    ]
    if systems and all(s.get("chunks") for s in systems):
        cells = [{"cs": multi_token_counts(s["chunks"], beta)} for s in systems]
        rows.append({"type": MULTI_TOKEN, "cells": cells, "frequency": max(c["cs"]["tp"] + c["cs"]["fn"] for c in cells)})
    overall = [{mode: s["errant"].get(mode, {}) for mode in ("cs", *DETECTION_MODES)} for s in systems]
    return {"level": level, "systems": [s["name"] for s in systems], "rows": rows, "overall": overall}
