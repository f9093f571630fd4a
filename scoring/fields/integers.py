"""One reading of a whole number from text, for every file, form and query the project reads.

``'²'.isdigit()`` is true while ``int('²')`` fails, and ``int('٣')``, ``int('１')`` and
``int(' 7_0 ')`` succeed: a check by ``isdigit`` followed by ``int`` was a 500 in several
places, and ``int`` alone takes what nobody means. A whole number here is ASCII digits
only, an optional leading ``-`` where negatives are allowed, at most :data:`MAX_DIGITS`
of them, within the bounds given; anything else is None, for the caller to name.
"""

from __future__ import annotations

import re

MAX_DIGITS = 12
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: object, *, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """``text`` as an int when it is ASCII digits (a ``-`` first only when ``minimum`` is
    below 0) within ``minimum`` and ``maximum``; else None."""
    if not isinstance(text, str) or not _WHOLE.fullmatch(text):
        return None
    if text.startswith("-") and (minimum is None or minimum >= 0):
        return None
    value = int(text)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        return None
    return value
