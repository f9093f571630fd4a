import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

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


WHOLE_UP_TO = 12  # characters: corpus and system names (cs-geccc, GECToR-BERT) fit


@register.filter
def unbroken(name) -> SafeString:
    """``name`` escaped, each short word that holds a hyphen kept on one line: a browser
    breaks a line after a hyphen, so a narrow column showed ``cs-`` over ``geccc``. Lines
    still break between words, and a word longer than :data:`WHOLE_UP_TO` may break after
    its hyphens: kept whole, a long one would widen a phone's table past the screen."""
    parts = re.split(r"(\s+)", str(name))
    return mark_safe(
        "".join(
            f'<span class="word">{escape(p)}</span>' if "-" in p and len(p) <= WHOLE_UP_TO else escape(p) for p in parts
        )
    )
