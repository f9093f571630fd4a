"""The meta-evaluation page: correlations with human judgments, their intervals, window analysis."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render

from scoring.registry import label

from .. import params
from ..access import may_see_meta_evaluation, meta_evaluation_audience
from ..insights.meta import judgments_of, meta_evaluation_for
from ..insights.meta_charts import interval_chart, window_chart
from ..selectors.tasks import task_or_404

CORRELATIONS = ("pearson", "spearman")


def figure(entry: dict | None, key: str) -> dict | None:
    """One table cell: the correlation asked for and its interval."""
    return None if entry is None else {"value": entry[key], "ci": entry.get(f"{key}_ci"), "n": entry["n_systems"]}


def meta_evaluation(request, slug):
    task = task_or_404(slug)
    if not may_see_meta_evaluation(task, request.user):
        raise PermissionDenied("the meta-evaluation is shown to organizers, and to everyone once the task has ended")
    audience = meta_evaluation_audience(task, request.user)
    judgments = judgments_of(task, params.phase_key(request.GET), audience=audience)
    if judgments is None:
        raise Http404("this task has no human judgments (manage.py attach_judgments)")
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
