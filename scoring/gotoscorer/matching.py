"""Judging a system on each gold chunk: GTS's ``alignmenter.update_evaluation``.

For each gold chunk GTS scans the system's chunks in order (``ChunkInfo.compare``):

* same span and same correction: *equal*; record (modified = the system chunk's,
  correct = True) and stop, overwriting anything recorded before;
* same span, other correction: *not equal*;
* the gold chunk is an insertion slot and the spans differ: *pass* (a slot only meets a
  chunk at the same slot);
* otherwise *not equal* when the spans overlap at a start
  (``g.start <= s.start < g.end`` or ``s.start <= g.start < s.end``), else *pass*.

A *not equal* records correct = False and ORs the system chunk's ``modified`` into the
record. With no record at all the outcome is (modified = False, correct = not
g.modified). Because *equal* stops the scan and overwrites, the outcome does not depend
on the scan order except through the first equal chunk, so we look chunks up by span
and start instead of scanning every pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from .chunks import Chunk


def judge_sentence(gold: Sequence[Chunk], system: Sequence[Chunk]) -> list[tuple[bool, bool]]:
    """``(modified, correct)`` of the system on each gold chunk of one sentence."""
    first_equal: dict[tuple[int, int, str], Chunk] = {}
    for chunk in system:
        first_equal.setdefault((chunk.start, chunk.end, chunk.correction), chunk)
    rivals_of: _Rivals | None = None
    outcomes = []
    for g in gold:
        equal = first_equal.get((g.start, g.end, g.correction))
        if equal is not None:
            outcomes.append((equal.modified, True))
            continue
        rivals_of = rivals_of or _Rivals(system)
        rivals = rivals_of(g)
        if rivals:
            outcomes.append((any(s.modified for s in rivals), False))
        else:
            outcomes.append((False, not g.modified))
    return outcomes


class _Rivals:
    """The system chunks a gold chunk is *not equal* to (built only when one is needed)."""

    def __init__(self, system: Sequence[Chunk]):
        self.by_span: dict[tuple[int, int], list[Chunk]] = {}
        self.starting_at: dict[int, list[Chunk]] = {}
        self.covering: dict[int, list[Chunk]] = {}  # token position p -> chunks with start <= p < end
        for chunk in system:
            self.by_span.setdefault((chunk.start, chunk.end), []).append(chunk)
            self.starting_at.setdefault(chunk.start, []).append(chunk)
            for position in range(chunk.start, chunk.end):
                self.covering.setdefault(position, []).append(chunk)

    def __call__(self, g: Chunk) -> list[Chunk]:
        """Called only when no system chunk equals ``g``."""
        if g.is_insertion:
            return self.by_span.get((g.start, g.end), [])
        starting = [s for p in range(g.start, g.end) for s in self.starting_at.get(p, ())]
        return starting + self.covering.get(g.start, [])
