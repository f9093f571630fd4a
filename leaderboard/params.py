"""Query parameters, checked in one place: a malformed value is a 400 that says what is
valid, never a 500 further down (``?phase=%00`` is a DataError on PostgreSQL, and
``'²'.isdigit()`` is true while ``int('²')`` fails).

Every reader takes the request's ``GET`` (or DRF's ``query_params``) and raises
:class:`BadParameter`, which :class:`leaderboard.errors.ClientErrors` answers with a 400
(JSON under ``/api/``, a page elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from scoring.fields.integers import whole_number

SLUG = re.compile(r"[-a-zA-Z0-9_]+")
LARGEST = 2**31 - 1  # fits every integer column


class BadParameter(Exception):
    def __init__(self, name: str, message: str, valid: Iterable[str] = ()):
        super().__init__(f"{name}: {message}")
        self.name, self.message, self.valid = name, message, list(valid)


def text(query, name: str, *, default: str = "", max_length: int = 100, pattern: re.Pattern | None = None) -> str:
    """A short string without control characters (``%00`` never reaches the database)."""
    value = query.get(name)
    if value is None or value == "":
        return default
    if len(value) > max_length:
        raise BadParameter(name, f"at most {max_length} characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value) or (pattern is not None and not pattern.fullmatch(value)):
        raise BadParameter(name, f"{value!r} is not a valid {name}")
    return value


def choice(query, name: str, choices: Sequence[str], default: str = "") -> str:
    value = query.get(name)
    if value is None or value == "":
        return default
    if value not in choices:
        raise BadParameter(name, f"one of {', '.join(choices) or '(none)'}", choices)
    return value


def integer(value: object, name: str, *, minimum: int = 0, maximum: int = LARGEST) -> int:
    """The one integer parser of query parameters, form fields and imported fields
    (:func:`scoring.fields.integers.whole_number`: ASCII digits, bounded): a
    :class:`BadParameter` naming the field and the range otherwise."""
    parsed = whole_number(value, minimum=minimum, maximum=maximum)
    if parsed is None:
        shown = str(value)[:20]
        raise BadParameter(name, f"a whole number from {minimum} to {maximum} in ASCII digits (got {shown!r})")
    return parsed


def number(query, name: str, *, default: int, minimum: int = 0, maximum: int = LARGEST) -> int:
    value = query.get(name)
    if value is None or value == "":
        return default
    return integer(value, name, minimum=minimum, maximum=maximum)


def ids(values: Iterable[str], name: str, *, limit: int = 20) -> list[int]:
    """Ids (of submissions, teams), each ASCII digits, at most ``limit`` of them, duplicates dropped."""
    values = [v.strip() for v in values if v.strip()]
    if len(values) > limit:
        raise BadParameter(name, f"at most {limit} ids")
    return list(dict.fromkeys(integer(v, name, minimum=1) for v in values))


def phase_key(query) -> str:
    """``?phase=``: a phase's key within its task (a slug), or '' for the current phase."""
    return text(query, "phase", max_length=32, pattern=SLUG)


def metric(query, valid: Callable[[], Sequence[str]], default: str) -> str:
    """``?metric=``: a score path the board can be ranked by; a 400 lists them otherwise.
    ``valid`` is called only when a metric is asked for: the polled board's default
    costs nothing."""
    value = query.get("metric")
    if value is None or value == "":
        return default
    paths = valid()
    if value not in paths:
        raise BadParameter("metric", f"no score at {value!r}; valid paths: {', '.join(paths)}", paths)
    return value
