from django import template

from scoring import label, value_at

register = template.Library()


@register.filter
def score(scores: dict, path: str):
    """``{{ row.scores|score:"errant.cs.f" }}``: the number at a metric path, or ''."""
    value = value_at(scores, path)
    return "" if value is None else value


@register.filter
def metric_label(path: str) -> str:
    """A readable column name for a metric path (``errant.cs.f`` -> ``ERRANT cs F``)."""
    return label(path)
