"""The meta-evaluation page: correlations with human judgments, their intervals, window analysis."""

from django.shortcuts import render

from scoring.registry import label

from ... import params
from ...selectors.shared_tasks import task_or_404
from ..insights.meta import meta_evaluation_for, visible_judgments
from ..insights.meta_charts import interval_chart, window_chart

CORRELATIONS = ("pearson", "spearman")


def figure(entry: dict | None, key: str) -> dict | None:
    """One table cell: the correlation asked for and its interval."""
    return None if entry is None else {"value": entry[key], "ci": entry.get(f"{key}_ci"), "n": entry["n_systems"]}


def meta_evaluation(request, slug):
    task = task_or_404(slug)
    judgments, audience = visible_judgments(task, request.user, params.phase_key(request.GET))
    human, table = meta_evaluation_for(judgments, audience)
    table = table or {"sets": {}, "set": None}
    schemes = list(human.schemes)
    chosen_set = params.choice(request.GET, "set", list(table["sets"]), table["set"])
    scheme = params.choice(request.GET, "scheme", schemes, schemes[0] if schemes else "")
    correlation = params.choice(request.GET, "correlation", list(CORRELATIONS), "pearson")
    content = table["sets"].get(chosen_set, {"system": {}, "sentence": {}, "windows": {}, "systems": []})
    return render(
        request,
        "leaderboard/meta.html",
        {
            "task": task,
            "phase": judgments.phase,
            "table": table,
            "files": judgments.files,
            "sets": sorted(table["sets"], key=lambda name: name != table["set"]),
            "chosen_set": chosen_set,
            "schemes": schemes,
            "scheme": scheme,
            "correlations": CORRELATIONS,
            "correlation": correlation,
            "systems": content["systems"],
            "system_rows": [
                {"label": label(p), "path": p, "cells": [figure(cells.get(s), correlation) for s in schemes]}
                for p, cells in content["system"].items()
            ],
            "rankings": list(human.rankings),
            "sentence_rows": [
                {"label": label(p), "path": p, "cells": [cells.get(r) for r in human.rankings]}
                for p, cells in content["sentence"].items()
            ],
            "intervals": interval_chart(content["system"], scheme, correlation),
            "windows": window_chart(content["windows"], scheme, correlation),
        },
    )
