"""The edit lattice of one sentence, built as m2scorer 3.2 builds it (Dahlmeier & Ng, 2012, section 3).

Vertices are cells (i, j) of the Levenshtein matrix of source tokens against hypothesis
tokens that lie on an optimal alignment; m2scorer takes the union of two alignments,
substitution cost 1 and substitution cost 2. A base edge is one step: a diagonal (an
unchanged token, or a substitution), a deletion or an insertion. Every edge that both
alignments share is listed twice, as m2scorer's edge list does.

m2scorer then adds *transitive arcs* with a Floyd-Warshall triple loop: an arc u -> w
merges the edits of a path, holding at most ``max_unchanged_words`` unchanged tokens.
Because every edge goes forward in the lexicographic order of cells, and the triple loop
visits intermediates k in that order, the out-arcs of k are still base edges when k is
visited, and its in-arcs are final. So the loop is a forward extension, computed here in
time linear in the arcs: for each k, each in-arc (u, k) is extended by each base edge
(k, w), and replaces the arc u -> w when it is strictly shorter (in base edges). The
arcs are appended in m2scorer's order (k, then u, then w) and an arc improved twice is
listed twice. Finally m2scorer removes the two-token unchanged arcs while iterating the
same list, which skips the entry after each removal: that is reproduced too, since the
list's length and order both reach the path search (section 3 of :mod:`.search`).

A lattice with more vertices or arcs than :mod:`.budget` allows is not finished:
:class:`.budget.OverBudget` is raised as soon as the count is passed.
"""

from __future__ import annotations

from functools import cached_property
from operator import itemgetter

import numpy as np

from . import budget
from .arcs import LENGTH, POSITIONS, START, UNCHANGED, WEIGHT
from .budget import OverBudget
from .path import shortest_path

DIAGONAL, DELETION, INSERTION = 1, 2, 4
EPSILON = 0.001
WIDE = 64  # in-arcs from which a numpy gather beats a Python loop (its fixed cost is a few microseconds)
FIRST_ROW = 0  # a whole sentence's lattice: its first row is the sentence's, from column 0


def default_weight(length: int, entries: int, changes: bool) -> float:
    """m2scorer's weight of an arc that matches no gold edit: its length, plus EPSILON
    once per entry in the edge list unless it changes nothing (added in that order)."""
    if not changes:
        return float(length)
    weight = length + EPSILON
    for _ in range(entries - 1):
        weight += EPSILON
    return weight


def optimal_moves(source: list[str], target: list[str]) -> tuple[list[list[int]], list[list[int]]]:
    """Per cell, the steps into it that lie on an optimal alignment (bit sets of DIAGONAL,
    ...), for substitution cost 1 and for substitution cost 2.

    Only cells near the diagonal can lie on an optimal alignment: reaching cell (i, j)
    and coming back to the last cell takes at least |i - j| + |(n - m) - (i - j)|
    insertions and deletions. So the matrices are filled in a band of that bound (cells
    outside count as unreachable), widened until the distance fits in it (Ukkonen, 1985):
    then every optimal path lies inside and its steps are the full matrices' steps.
    """
    n, m = len(source), len(target)
    edits = abs(n - m) + 4
    while True:
        moves = _banded_moves(source, target, edits)
        if moves is not None:
            return moves
        edits *= 2


def _banded_moves(source: list[str], target: list[str], edits: int):
    """:func:`optimal_moves` inside the band of ``edits`` edits; None when the distance
    (substitution cost 2) exceeds it."""
    n, m = len(source), len(target)
    infinity = n + m + 1
    low, high = min(0, n - m), max(0, n - m)
    slack = (edits - abs(n - m)) // 2
    previous_one = [infinity] * (m + 1)
    previous_two = [infinity] * (m + 1)
    row_end = min(m, slack - low)
    previous_one[: row_end + 1] = previous_two[: row_end + 1] = range(row_end + 1)
    moves_one = [[0] + [INSERTION] * m]
    moves_two = [[0] + [INSERTION] * m]
    for i in range(1, n + 1):
        token = source[i - 1]
        one = [infinity] * (m + 1)
        two = [infinity] * (m + 1)
        step_one = [0] * (m + 1)
        step_two = [0] * (m + 1)
        first = max(0, i - high - slack)
        if first == 0:
            one[0] = two[0] = i
            step_one[0] = step_two[0] = DELETION
            first = 1
        for j in range(first, min(m, i - low + slack) + 1):
            same = token == target[j - 1]
            up_one, up_two = previous_one[j] + 1, previous_two[j] + 1
            left_one, left_two = one[j - 1] + 1, two[j - 1] + 1
            diagonal_one = previous_one[j - 1] + (0 if same else 1)
            diagonal_two = previous_two[j - 1] + (0 if same else 2)
            best = diagonal_one if diagonal_one < up_one else up_one
            if left_one < best:
                best = left_one
            one[j] = best
            step_one[j] = (
                (DIAGONAL if diagonal_one == best else 0)
                | (DELETION if up_one == best else 0)
                | (INSERTION if left_one == best else 0)
            )
            best = diagonal_two if diagonal_two < up_two else up_two
            if left_two < best:
                best = left_two
            two[j] = best
            step_two[j] = (
                (DIAGONAL if diagonal_two == best else 0)
                | (DELETION if up_two == best else 0)
                | (INSERTION if left_two == best else 0)
            )
        moves_one.append(step_one)
        moves_two.append(step_two)
        previous_one, previous_two = one, two
    if previous_two[m] > edits:
        return None
    return moves_one, moves_two


def alignment_edges(moves: list[list[int]], width: int) -> set[tuple[int, int]]:
    """The edges (u, w) of every optimal alignment path, as cell keys i * width + j.

    m2scorer walks back from the last cell along all optimal steps; these are the same
    edges.
    """
    n, m = len(moves) - 1, width - 1
    edges: set[tuple[int, int]] = set()
    seen = {n * width + m}
    stack = [(n, m)]
    while stack:
        i, j = stack.pop()
        step = moves[i][j]
        w = i * width + j
        for bit, pi, pj in ((DIAGONAL, i - 1, j - 1), (DELETION, i - 1, j), (INSERTION, i, j - 1)):
            if step & bit and pi >= 0 and pj >= 0:
                u = pi * width + pj
                edges.add((u, w))
                if u not in seen:
                    seen.add(u)
                    stack.append((pi, pj))
    return edges


def edit_start(u: int, w: int, width: int, first_row: int | None = FIRST_ROW) -> int:
    """The source offset m2scorer 3.2 gives a one-step edit u -> w.

    Its first matrix row records an insertion before target token j at source offset
    j - 1 instead of 0, so an edit that starts with such an insertion starts there.
    ``first_row`` is the column at which this lattice's first row starts in the sentence's
    first row, or None when the lattice (a part of a line, :mod:`.parts`) starts below it.
    """
    ui, uj = divmod(u, width)
    if first_row is not None and ui == 0 and w == u + 1:
        return uj + first_row
    return ui


def edit_end(w: int, width: int, first_row: int | None = FIRST_ROW) -> int:
    """The source offset where an edit ending at cell w ends (first-row quirk as above)."""
    wi, wj = divmod(w, width)
    return wi if wi > 0 or first_row is None else wj - 1 + first_row


def optimal_path(source: list[str], target: list[str]) -> list[tuple[int, int]]:
    """One optimal alignment (substitution cost 1) as cells (i, j), first to last: walked
    back from the last cell, an insertion is preferred, then a deletion, then a diagonal
    step, so insertions come as late as they may. The Python twin of the kernel's
    ``m2_alignment_path``."""
    moves = optimal_moves(source, target)[0]
    i, j = len(source), len(target)
    path = [(i, j)]
    while i or j:
        step = moves[i][j]
        if j and step & INSERTION:
            j -= 1
        elif i and step & DELETION:
            i -= 1
        else:
            i, j = i - 1, j - 1
        path.append((i, j))
    path.reverse()
    return path


class Lattice:
    """Vertices, base edges and transitive arcs of one sentence, in m2scorer's edge-list order.

    ``arcs[w][u]`` is the arc u -> w (fields above); ``size`` is the length of m2scorer's
    edge list after the removal of unchanged arcs (a matched gold edge weighs ``-size``).
    ``first_row``: see :func:`edit_start`.
    """

    def __init__(
        self, source: list[str], target: list[str], max_unchanged_words: int = 2, first_row: int | None = FIRST_ROW
    ):
        self.source, self.target = source, target
        self.width = width = len(target) + 1
        self.end = len(source) * width + len(target)
        self.first_row = first_row
        edge_lists = [alignment_edges(moves, width) for moves in optimal_moves(source, target)]
        edges = sorted(edge_lists[0] | edge_lists[1])
        if len(edges) > budget.MAX_ARCS or len({cell for edge in edges for cell in edge}) > budget.MAX_VERTICES:
            raise OverBudget(len(source), len(target))
        self.arcs: dict[int, dict[int, list]] = {}
        successors: dict[int, list[int]] = {}
        position = 0
        for u, w in edges:
            ui, uj = divmod(u, width)
            unchanged = int(w == u + width + 1 and source[ui] == target[uj])
            entries = ((u, w) in edge_lists[0]) + ((u, w) in edge_lists[1])
            weight = default_weight(1, entries, not unchanged)
            self.arcs.setdefault(w, {})[u] = [
                1,
                unchanged,
                edit_start(u, w, width, first_row),
                list(range(position, position + entries)),
                weight,
            ]
            self.arcs.setdefault(u, {})
            successors.setdefault(u, []).append(w)
            position += entries
        self.vertices = sorted(self.arcs)
        self.size = position
        self._remove_unchanged_arcs(
            self._transitive_arcs(successors, max_unchanged_words, budget.MAX_ARCS - len(edges))
        )

    def _transitive_arcs(
        self, successors: dict[int, list[int]], max_unchanged_words: int, allowed: int
    ) -> list[tuple[int, dict]]:
        """Extend every arc by one base edge, in m2scorer's (k, u, w) order; the appended
        entries as (u, arcs into w) pairs, kept in two lists (no tuple per entry). At most
        ``allowed`` new arcs (a shorter replacement is not new)."""
        appended_sources: list[int] = []
        appended_targets: list[dict] = []
        sources, targets = appended_sources.append, appended_targets.append
        arcs = self.arcs
        for k in self.vertices:
            into_k = arcs[k]
            out_of_k = [(arcs[w], arcs[w][k][UNCHANGED]) for w in successors.get(k, ())]
            if not into_k or not out_of_k:
                continue
            for u in sorted(into_k):
                arc = into_k[u]
                length = arc[LENGTH] + 1
                for into_w, step_unchanged in out_of_k:
                    current = into_w.get(u)
                    if current is not None and current[LENGTH] <= length:
                        continue
                    unchanged = arc[UNCHANGED] + step_unchanged
                    if unchanged <= max_unchanged_words:
                        if current is None:
                            allowed -= 1
                            if allowed < 0:
                                raise OverBudget(len(self.source), len(self.target))
                        into_w[u] = [length, unchanged, arc[START], [], 0.0]
                        sources(u)
                        targets(into_w)
        return list(zip(appended_sources, appended_targets))

    def _remove_unchanged_arcs(self, appended: list) -> None:
        """Drop merged arcs that change nothing, skipping the entry after each drop as
        m2scorer's remove-while-iterating does; number the remaining entries.

        Each numbered entry also brings its arc's weight up to :func:`default_weight` of
        the entries so far, with the same float additions in the same order, so the
        quarter of a million merged arcs need no second pass."""
        position = self.size
        skip = False
        for u, into_w in appended:
            current = into_w.get(u)
            if current is None:
                continue
            length = current[LENGTH]
            if current[UNCHANGED] == length:
                if not skip:
                    del into_w[u]
                    skip = True
                    continue
                current[WEIGHT] = float(length)
            elif current[POSITIONS]:
                current[WEIGHT] += EPSILON
            else:
                current[WEIGHT] = length + EPSILON
            skip = False
            current[POSITIONS].append(position)
            position += 1
        self.size = position

    @cached_property
    def wide_in_arcs(self) -> dict[int, tuple[list[int], np.ndarray, np.ndarray]]:
        """Per vertex with at least WIDE in-arcs: their sources u (a list and a numpy
        array of cells) and default weights, for the path search's numpy gathers; built
        once and shared by every annotator's search."""
        wide = {}
        for w, into in self.arcs.items():
            if len(into) >= WIDE:
                sources = list(into)
                wide[w] = (
                    sources,
                    np.array(sources, dtype=np.intp),
                    np.fromiter(map(itemgetter(WEIGHT), into.values()), float, len(into)),
                )
        return wide

    # -- what the search reads (the compiled lattice answers the same calls) ----------------
    @property
    def empty(self) -> bool:
        return self.end == 0 or not self.vertices

    def span_arcs(self, spans: set[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """The arcs whose edit has one of ``spans``, each listed once per entry, sorted (m2scorer's ``M``)."""
        ends = {end for _, end in spans}
        found: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for w in self.vertices:
            end = edit_end(w, self.width, self.first_row)
            if end not in ends:
                continue
            for u, arc in self.arcs[w].items():
                span = (arc[START], end)
                if span in spans:
                    found.setdefault(span, []).extend([(u, w)] * len(arc[POSITIONS]))
        for entries in found.values():
            entries.sort()
        return found

    def length(self, u: int, w: int) -> int:
        return self.arcs[w][u][LENGTH]

    def start(self, u: int, w: int) -> int:
        return self.arcs[w][u][START]

    def end_of(self, u: int, w: int) -> int:
        return edit_end(w, self.width, self.first_row)

    def changes(self, u: int, w: int) -> bool:
        arc = self.arcs[w][u]
        return arc[UNCHANGED] < arc[LENGTH]

    def tokens(self, u: int, w: int) -> tuple[str, str]:
        return arc_tokens(self, u, w)

    def edit_arcs(self, weights: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
        """The arcs of m2scorer's path that change something, first to last, with
        ``weights`` replacing the defaults of some arcs (:mod:`.path`)."""
        return [(u, w) for u, w in shortest_path(self, weights) if self.changes(u, w)]

    def close(self) -> None:
        """Nothing to free (the compiled lattice frees its C memory here)."""


def arc_tokens(lattice, u: int, w: int) -> tuple[str, str]:
    """The source and hypothesis text an arc u -> w replaces (m2scorer's strings)."""
    ui, uj = divmod(u, lattice.width)
    wi, wj = divmod(w, lattice.width)
    return " ".join(lattice.source[ui:wi]), " ".join(lattice.target[uj:wj])
