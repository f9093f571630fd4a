"""Built-in rated outputs: the uncorrected input (ORIGINAL) and a reference (REFERENCE),
rated beside the systems as MultiGEC-2025's human evaluation rated them, so that the
systems' ratings have a floor and a ceiling to be read against.

A rating campaign asks for them by name (``"builtin": ["ORIGINAL", "REFERENCE"]``). They
are shown like any output (an annotator is never told which is which) under the ids
:data:`BUILTIN` (below zero: no submission has them), rated, counted and controlled like
the systems, and marked in the results (``"builtin"``), where they are left out of the
metrics' correlations and of the meta-evaluation's schemes (no metric scored them).
"""

from __future__ import annotations

import scoring

from ..insights.builtin_outputs import BUILTIN, builtin_labels

__all__ = ["BUILTIN", "builtin_labels", "builtin_outputs", "checked_builtin", "mark_builtin"]
MEANING = {"ORIGINAL": "the uncorrected input", "REFERENCE": "the corpus's first reference"}


def checked_builtin(rates: bool, names: object, problems: list[str]) -> list[str]:
    """The built-in outputs to store, in :data:`BUILTIN`'s order; every problem named
    (``rates``: whether the campaign's mode rates, the only one with built-in outputs)."""
    if names in (None, []):
        return []
    if not rates:
        problems.append("builtin: only a campaign in mode rating rates built-in outputs")
        return []
    if not isinstance(names, list) or not all(isinstance(n, str) and n in BUILTIN for n in names):
        problems.append(f"builtin: a list of {', '.join(BUILTIN)} (got {str(names)[:80]!r})")
        return []
    return [n for n in BUILTIN if n in names]


def builtin_outputs(campaign, dataset: scoring.Dataset) -> dict[int, list[list[str]]]:
    """``{id: tokens per line}``: the sources, and the first reference where it has one."""
    outputs: dict[int, list[list[str]]] = {}
    for name in campaign.builtin or []:
        if name == "ORIGINAL":
            outputs[BUILTIN[name]] = [list(tokens) for tokens in dataset.sources]
        elif dataset.references:
            outputs[BUILTIN[name]] = [list(tokens) for tokens in dataset.references[0].tokens]
    return outputs


def mark_builtin(campaign, results: dict) -> None:
    """Mark the built-in outputs in a rating campaign's results."""
    names = [n for n in campaign.builtin or [] if n in results.get("systems", {})]
    results["builtin"] = {name: MEANING[name] for name in names}
    for name in names:
        results["systems"][name]["builtin"] = MEANING[name]
