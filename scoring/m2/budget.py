"""What one line's M2 lattice may hold, so that scoring any line the input limits admit
has a bounded cost (one 600-token line against a 19-token source needed 3 GB).

m2scorer's lattice holds every edit sequence along every optimal alignment, merged while
at most two unchanged tokens lie inside: on a heavily rewritten line nearly every pair of
its vertices is joined by an arc, so the arcs grow with the square of the vertices and the
fourth power of the line. Lines under the budget (every CoNLL-2014 and SEEDA sentence: the
worst, CoNLL-2014 line 333, has 1,255 vertices and 253,303 arcs) are scored exactly; a line
over it is split (:mod:`.parts`) and the result says so.
"""

from __future__ import annotations

MAX_VERTICES = 200_000
MAX_ARCS = 500_000  # about 32 MB in the compiled lattice, 600 MB in the Python one


class OverBudget(Exception):
    """The lattice of this line (or part of it) would hold more than the budget allows."""

    def __init__(self, source_tokens: int, target_tokens: int):
        super().__init__(
            f"the M2 lattice of {source_tokens} source against {target_tokens} output tokens is over its budget"
        )
