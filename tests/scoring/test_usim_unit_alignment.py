"""Unit alignment: best terminal-set F1 under the word alignment, labels decide the match."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.usim import SemanticGraph
from scoring.usim.align import matched_units, unit_f1


def graph(words: str, units: list[list[int]], labels: list[str]) -> SemanticGraph:
    """Units written as the positions of the words they cover."""
    tokens = words.split()
    rows = [[t in unit for t in range(len(tokens))] for unit in units]
    return SemanticGraph(tokens, np.array(rows, dtype=bool), np.array(labels, dtype=object))


def test_unit_f1_counts_aligned_words_inside_both_units():
    source = graph("the cat sat on mats", [[0, 1], [3, 4], [0, 1, 2, 3, 4]], ["nsubj", "prep", "ROOT"])
    output = graph("a cat sat on a mat", [[0, 1], [3, 4, 5]], ["nsubj", "prep"])
    aligned = np.array([0, 1, 2, 3, 5])  # the->a, mats->mat; the second "a" is unaligned
    f1 = unit_f1(source, output, aligned)
    assert np.allclose(f1, [[1.0, 0.0], [0.0, 4 / 5], [4 / 7, 4 / 8]])


def reference_align_nodes(f1: np.ndarray, compatible: np.ndarray, order: list[int]) -> int:
    """``align.align_nodes`` as written, trying the other graph's units in ``order``."""
    matched = 0
    for u in range(f1.shape[0]):
        best, partner = None, None
        for v in order:
            sim = f1[u, v]
            if sim and (best is None or sim > best or (sim == best and compatible[u, v])):
                best, partner = sim, v
                if best == 1 and compatible[u, v]:
                    break
        matched += partner is not None and bool(compatible[u, partner])
    return matched


@st.composite
def similarity_tables(draw):
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    sizes = st.integers(2, 4)
    common = draw(st.lists(st.lists(st.integers(0, 2), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    size1 = draw(st.lists(sizes, min_size=rows, max_size=rows))
    size2 = draw(st.lists(sizes, min_size=cols, max_size=cols))
    f1 = 2 * np.minimum(np.array(common), np.minimum.outer(size1, size2)) / np.add.outer(size1, size2)
    compatible = np.array(
        draw(st.lists(st.lists(st.booleans(), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    )
    order = draw(st.permutations(range(cols)))
    return f1, compatible, order


@settings(max_examples=200, deadline=None)
@given(similarity_tables())
def test_matches_equal_the_reference_loop_in_any_order(table):
    f1, compatible, order = table
    assert matched_units(f1, compatible) == reference_align_nodes(f1, compatible, order)


def test_several_units_may_share_one_partner():
    f1 = np.array([[0.8], [0.5]])
    assert matched_units(f1, np.array([[True], [True]])) == 2
