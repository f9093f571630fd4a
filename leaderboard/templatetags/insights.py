"""Template tags of the insight pages: the board's extras and small formatting helpers."""

from django import template
from django.conf import settings

from .. import access
from ..insights import charts
from ..insights.board import board_extras as compute_board_extras
from ..services.boards.ties import ask_for_tie_groups

register = template.Library()


@register.simple_tag(takes_context=True)
def board_extras(context):
    """``{% board_extras as extra %}``: track filter, tie groups and the metric menu for
    the board in the context (the platform's ``_board_context``, which validated ``track``).
    When the stored tie groups are not of the rows shown, a worker is asked for them
    (inline in the ``sync`` mode, so that render already has them)."""
    phase, metric, track = context["phase"], context["metric"], context.get("track", "")
    extra = compute_board_extras(phase, list(context.get("rows", [])), metric, track)
    shown = extra["shown_ties"]
    if (
        shown.state in ("pending", "earlier")
        and ask_for_tie_groups(phase, metric, track, shown.key)
        and settings.GEC_TASK_MODE == "sync"
    ):
        extra = compute_board_extras(phase, list(context.get("rows", [])), metric, track)
    return extra


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
    return [tuple(item.split(":", 1)) for item in text.split(",")]


@register.filter
def type_profile(table: dict) -> dict:
    """The per-type table as the data of its chart (``insights.charts.type_profile``)."""
    return charts.type_profile(table)
