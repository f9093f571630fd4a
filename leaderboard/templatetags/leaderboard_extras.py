from django import template

from scoring import HEADLINE_SCORES

from ..ranking import metric_value

LABELS = {path: label for label, path in HEADLINE_SCORES}

register = template.Library()


@register.filter
def score(scores: dict, path: str):
    """``{{ row.scores|score:"errant.cs.f" }}``: the number at a metric path, or ''."""
    value = metric_value(scores, path)
    return "" if value is None else value


@register.filter
def metric_label(path: str) -> str:
    """A readable column name for a metric path (``errant.cs.f`` -> ``ERRANT F``)."""
    return LABELS.get(path, path)
