"""The edit: ERRANT's (start, end, correction, type) over source tokens.

A plain named tuple so that millions of them stay cheap and serialise to JSON as lists.
"""

from __future__ import annotations

from typing import NamedTuple

NOOP = "noop"
UNK = "UNK"


class Edit(NamedTuple):
    """``type`` is the type shown (per-type tables, heat maps); ``errant_type`` is stock
    ERRANT's own type where that is another one (the ``tokens`` pipeline: ERRANT's English
    rules on a blank pipeline, MultiGEC-2025's M2 types), which ERRANT's ``cse`` compares."""

    start: int
    end: int
    correction: str
    type: str
    errant_type: str = ""

    @property
    def compared_type(self) -> str:
        """The type ERRANT's ``cse`` mode compares."""
        return self.errant_type or self.type

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


def apply_edits(source: list[str], edits: list[Edit], *, skip_types: tuple[str, ...] = (NOOP, UNK)) -> list[str]:
    """The corrected tokens that ``edits`` make of ``source``.

    Edits of ``skip_types`` are ignored (noop and UNK change nothing, as in ERRANT's and
    gecommon's M2 readers); Um and every other type are applied, an empty correction
    deleting its span.
    """
    out: list[str] = []
    cursor = 0
    for edit in sorted((e for e in edits if e.type not in skip_types and e.start >= 0), key=lambda e: (e.start, e.end)):
        if edit.start < cursor:  # overlapping edits: keep the first, as M2 appliers do
            continue
        out.extend(source[cursor : edit.start])
        out.extend(edit.correction.split())
        cursor = edit.end
    out.extend(source[cursor:])
    return out
