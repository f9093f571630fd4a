from django import template

from ..ranking import metric_value

register = template.Library()


@register.filter
def score(scores: dict, path: str):
    """``{{ row.scores|score:"errant.cs.f" }}``: the number at a metric path, or ''."""
    value = metric_value(scores, path)
    return "" if value is None else value
