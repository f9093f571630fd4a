"""The board of a phase of several corpora: each corpus's GLEU, P, R and F0.5 (the
columns of MultiGEC-2025's results tables) beside the macro average the rows rank by.

Where the registry says a metric cannot serve a corpus's language (USIM without a
dependency parser, say), the cell gives that reason instead of a number.
"""

from __future__ import annotations

from scoring import REGISTRY, default_paths, label, value_at

from ..models import Dataset, Phase
from .paths import metric_menu

CORPUS_COLUMNS = ("gleu.score", "errant.cs.p", "errant.cs.r", "errant.cs.f")


def corpus_columns(phase) -> list[str]:
    """The paths shown per corpus: those of MultiGEC's tables the task scores."""
    names = phase.task.metric_names()
    return [path for path in CORPUS_COLUMNS if path.split(".")[0] in names]


def macro_columns(rows: list[dict], metric: str, metric_names: list[str]) -> list[str]:
    """The macro-average columns, the same on the page and in the exports: the ranking
    path, then the task's usual scores that some row has."""
    available = metric_menu(rows)
    return [metric, *(path for path in default_paths(metric_names) if path != metric and path in available)]


def corpus_table(phase, rows: list[dict]) -> dict:
    """``{"columns": [(path, label)], "corpora": [{"name", "title", "lang", "pipeline",
    "n_references", "kind", "reasons"}], "rows": [(row, cells)]}``; ``cells`` holds per
    corpus ``(corpus, None)`` (no file for it) or ``(corpus, [(value, reason) per column])``."""
    columns = corpus_columns(phase)
    corpora = [
        {
            "name": c.corpus,
            "title": c.title,
            "lang": c.dataset.lang,
            "pipeline": c.dataset.pipeline or "default",
            "n_references": c.dataset.n_references,
            "kind": c.kind,
            "reasons": [c.unsupported_reason(path.split(".")[0]) for path in columns],
        }
        for c in phase.corpora()
    ]
    table = []
    for row in rows:
        cells = []
        for corpus in corpora:
            scores = row["corpora"].get(corpus["name"])
            values = (
                None
                if scores is None
                else [(value_at(scores, path), reason) for path, reason in zip(columns, corpus["reasons"])]
            )
            cells.append((corpus, values, row.get("corpus_uploads", {}).get(corpus["name"])))
        table.append((row, cells))
    return {"columns": [(path, label(path)) for path in columns], "corpora": corpora, "rows": table}


def unsupported_notes(phase) -> list[dict]:
    """Every metric of the task that cannot serve one of the phase's corpora, with the
    registry's reason: the board says why a column has no number for that corpus. Reads
    each dataset's name and language, never its texts (megabytes on a real task)."""
    corpora = phase.corpora()
    unread = [c.dataset_id for c in corpora if not Phase.dataset.is_cached(c)]
    light = Dataset.objects.defer(*Dataset.HEAVY).in_bulk(unread) if unread else {}
    for c in corpora:
        if c.dataset_id in light:
            c.dataset = light[c.dataset_id]
    return [
        {
            "metric": REGISTRY[name].display_name(),
            "corpus": c.corpus or c.dataset.name,
            "lang": c.dataset.lang,
            "reason": reason,
        }
        for c in corpora
        for name in phase.task.metric_names()
        if (reason := c.unsupported_reason(name))
    ]
