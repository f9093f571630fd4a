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
"""
from __future__ import annotations

from dataclasses import dataclass, field

DIAGONAL, DELETION, INSERTION = 1, 2, 4


@dataclass
class Arc:
    """An edge or merged arc u -> w of the lattice, with what m2scorer records for it.

    ``length`` counts base edges, ``unchanged`` the unchanged tokens inside, ``start`` is
    the source offset m2scorer gives the edit (see :func:`edit_start`), ``positions``
    where the arc is listed in the edge list (twice for an edge of both alignments, once
    per improvement for a merged arc).
    """

    length: int
    unchanged: int
    start: int
    noop: bool
    positions: list[int] = field(default_factory=list)


def optimal_moves(source: list[str], target: list[str], substitution: int) -> list[list[int]]:
    """Per cell, the steps into it that lie on an optimal alignment (bit set of DIAGONAL, ...)."""
    n, m = len(source), len(target)
    previous = list(range(m + 1))
    moves = [[0] + [INSERTION] * m]
    for i in range(1, n + 1):
        token = source[i - 1]
        row = [i] + [0] * m
        row_moves = [DELETION] + [0] * m
        for j in range(1, m + 1):
            diagonal = previous[j - 1] + (0 if token == target[j - 1] else substitution)
            deletion = previous[j] + 1
            insertion = row[j - 1] + 1
            best = min(diagonal, deletion, insertion)
            row[j] = best
            row_moves[j] = (DIAGONAL if diagonal == best else 0) | (DELETION if deletion == best else 0) | (INSERTION if insertion == best else 0)
        moves.append(row_moves)
        previous = row
    return moves


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


def edit_start(u: int, w: int, width: int) -> int:
    """The source offset m2scorer 3.2 gives a one-step edit u -> w.

    Its first matrix row records an insertion before target token j at source offset
    j - 1 instead of 0, so an edit that starts with such an insertion starts there.
    """
    ui, uj = divmod(u, width)
    if ui == 0 and w == u + 1:
        return uj
    return ui


def edit_end(w: int, width: int) -> int:
    """The source offset where an edit ending at cell w ends (first-row quirk as above)."""
    wi, wj = divmod(w, width)
    return wi if wi > 0 else wj - 1


class Lattice:
    """Vertices, base edges and transitive arcs of one sentence, in m2scorer's edge-list order.

    ``arcs[w][u]`` is the :class:`Arc` u -> w; ``size`` is the length of m2scorer's edge
    list after the removal of unchanged arcs (a matched gold edge weighs ``-size``).
    """

    def __init__(self, source: list[str], target: list[str], max_unchanged_words: int = 2):
        self.source, self.target = source, target
        self.width = width = len(target) + 1
        self.end = len(source) * width + len(target)
        edge_lists = [alignment_edges(optimal_moves(source, target, cost), width) for cost in (1, 2)]
        listed = sorted(edge_lists[0] | edge_lists[1])
        self.arcs: dict[int, dict[int, Arc]] = {}
        successors: dict[int, list[int]] = {}
        position = 0
        for u, w in listed:
            ui, uj = divmod(u, width)
            noop = w == u + width + 1 and source[ui] == target[uj]
            entries = ((u, w) in edge_lists[0]) + ((u, w) in edge_lists[1])
            arc = Arc(1, int(noop), edit_start(u, w, width), noop, list(range(position, position + entries)))
            position += entries
            self.arcs.setdefault(w, {})[u] = arc
            self.arcs.setdefault(u, {})
            successors.setdefault(u, []).append(w)
        self.vertices = sorted(self.arcs)
        self.size = position
        appended = self._transitive_arcs(successors, max_unchanged_words)
        self._remove_unchanged_arcs(appended)

    def _transitive_arcs(self, successors: dict[int, list[int]], max_unchanged_words: int) -> list[tuple[int, int, Arc]]:
        """Extend every arc by one base edge, in m2scorer's (k, u, w) order; the appended list."""
        appended = []
        arcs = self.arcs
        for k in self.vertices:
            into_k = arcs[k]
            out_of_k = successors.get(k, ())
            if not into_k or not out_of_k:
                continue
            for u in sorted(into_k):
                first = into_k[u]
                for w in out_of_k:
                    step = arcs[w][k]
                    length = first.length + 1
                    current = arcs[w].get(u)
                    if current is not None and current.length <= length:
                        continue
                    unchanged = first.unchanged + step.unchanged
                    if unchanged > max_unchanged_words:
                        continue
                    merged = Arc(length, unchanged, first.start, first.noop and step.noop)
                    arcs[w][u] = merged
                    appended.append((u, w, merged))
        return appended

    def _remove_unchanged_arcs(self, appended: list[tuple[int, int, Arc]]) -> None:
        """Drop merged arcs of unchanged tokens only, skipping the entry after each drop as
        m2scorer's remove-while-iterating does; number the remaining entries."""
        position = self.size
        skip = False
        for u, w, _ in appended:
            current = self.arcs[w].get(u)
            if current is None:
                continue
            if not skip and current.noop and current.length > 1:
                del self.arcs[w][u]
                skip = True
                continue
            skip = False
            current.positions.append(position)
            position += 1
        self.size = position

    def tokens(self, u: int, w: int) -> tuple[str, str]:
        """The source and hypothesis text an arc u -> w replaces (m2scorer's strings)."""
        ui, uj = divmod(u, self.width)
        wi, wj = divmod(w, self.width)
        return " ".join(self.source[ui:wi]), " ".join(self.target[uj:wj])

    def span(self, u: int, w: int) -> tuple[int, int]:
        return self.arcs[w][u].start, edit_end(w, self.width)
