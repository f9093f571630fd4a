"""Template tags of the insight pages: small formatting helpers (the board's extras come
from its view, ``views/pages.py board_extras``, which asks for tie groups: tags only read)."""

from django import template

from .. import access
from ..insights import charts

register = template.Library()


@register.filter
def percent(value, digits: int = 1):
    """A fraction in [0, 1] as a percentage string: ``0.4567|percent`` -> ``45.7``."""
    if value is None or value == "":
        return ""
    return f"{100 * float(value):.{int(digits)}f}"


@register.filter
def width(value):
    """A fraction as a CSS width percentage, clamped to 0..100."""
    try:
        return f"{min(max(float(value), 0.0), 1.0) * 100:.1f}"
    except (TypeError, ValueError):
        return "0"


@register.filter
def get(mapping, key):
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.simple_tag(takes_context=True)
def is_organizer(context, task) -> bool:
    return access.may_organize(task, context["request"].user)


@register.filter
def pairs(text: str) -> list[tuple[str, str]]:
    """``"csv:CSV,tex:LaTeX"|pairs`` -> ``[("csv", "CSV"), ("tex", "LaTeX")]``."""
    return [(key, name) for key, _, name in (item.partition(":") for item in text.split(","))]


@register.filter
def type_profile(table: dict) -> dict:
    """The per-type table as the data of its chart (``insights.charts.type_profile``)."""
    return charts.type_profile(table)
