"""Semantic graphs for USIM, behind a small interface so the parser can be swapped.

USIM compares *units*: non-terminal nodes that cover more than one terminal, other than
the root (``align.is_comparable`` in the reference), each labelled by its incoming edge.
The reference parses UCCA with TUPA, which cannot be installed here (it needs spaCy 2 and
model files only on web release pages), so :class:`DependencyGraphBuilder` derives the
graph from the spaCy dependency parse the scoring core already made: one unit per token
that has dependents, spanning its subtree, labelled with its relation. A UCCA builder
only has to return the same :class:`SemanticGraph` and register under its own name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np

from .normalise import normalise_token


@dataclass(frozen=True)
class SemanticGraph:
    """The terminals and comparable units of one sentence.

    ``words``: the normalised terminals, in sentence order; ``units``: a boolean matrix,
    one row per unit, ``units[u, t]`` when terminal ``t`` lies in unit ``u``; ``labels``:
    each unit's incoming edge label. Two units match only when their labels are equal (a
    builder whose parser has equivalent labels maps them to one name).
    """

    words: list[str]
    units: np.ndarray
    labels: np.ndarray


class GraphBuilder(Protocol):
    """Turns one parsed sentence (a spaCy Doc) into a :class:`SemanticGraph`."""

    name: ClassVar[str]

    def build(self, doc) -> SemanticGraph: ...


class DependencyGraphBuilder:
    """Units from a dependency parse: each head with its subtree, labelled by its relation.

    The graph's root is a virtual node above the sentence root(s) and is no unit, as the
    UCCA passage node is not; the root token is a unit labelled ``ROOT``, as the top
    scene of a UCCA passage is. Tokens that normalise to nothing are no terminals, so a
    unit counts only its remaining words and must still have at least two of them.
    """

    name: ClassVar[str] = "dependency"

    def build(self, doc) -> SemanticGraph:
        heads = [token.head.i for token in doc]
        normalised = [normalise_token(token.text) for token in doc]
        kept = [i for i, word in enumerate(normalised) if word]
        covers = subtree_matrix(heads)[:, kept]
        has_dependents = np.zeros(len(heads), dtype=bool)
        for i, head in enumerate(heads):
            if head != i:
                has_dependents[head] = True
        is_unit = has_dependents & (covers.sum(axis=1) > 1)
        labels = np.array([token.dep_ for token in doc], dtype=object)
        return SemanticGraph([normalised[i] for i in kept], covers[is_unit], labels[is_unit])


def subtree_matrix(heads: list[int]) -> np.ndarray:
    """``m[a, t]`` when token ``a`` is ``t`` or one of its ancestors (a root is its own head).

    Filled a depth level at a time: a token's column is its head's column plus itself,
    so the cost is one column copy per token. The matrix is n x n booleans, n bounded by
    the readers' per-line token limit (:mod:`scoring.limits`): 1 MB at 1,000 tokens.
    """
    n = len(heads)
    heads_array = np.asarray(heads, dtype=np.int64)
    depth = _depths(heads)
    m = np.zeros((n, n), dtype=bool)
    order = np.argsort(depth, kind="stable")
    for level in np.split(order, np.flatnonzero(np.diff(depth[order])) + 1):
        children = level[heads_array[level] != level]
        m[:, children] = m[:, heads_array[children]]
        m[level, level] = True
    return m


def _depths(heads: list[int]) -> np.ndarray:
    """Each token's distance from its root; a token on a cycle (never in a spaCy parse)
    counts as a root."""
    n = len(heads)
    depth = np.full(n, -1, dtype=np.int64)
    for t in range(n):
        path: list[int] = []
        a = t
        while depth[a] < 0 and heads[a] != a and len(path) <= n:
            path.append(a)
            a = heads[a]
        base = depth[a] if depth[a] >= 0 else 0
        depth[a] = base
        for k, node in enumerate(reversed(path), start=1):
            depth[node] = base + k
    return depth


GRAPH_BUILDERS: dict[str, type[GraphBuilder]] = {DependencyGraphBuilder.name: DependencyGraphBuilder}
