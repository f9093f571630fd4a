"""The lattice built and searched in C (``lattice_kernel.c``), with the Python lattice's interface.

On a long sentence the Python lattice holds a quarter of a million arcs as small lists;
the kernel keeps them as C structs, and the search reads back only what it uses: the arcs
of the gold spans (to weigh them) and the arcs of the chosen path. The kernel does the
same steps with the same float additions as :mod:`.lattice` and :mod:`.path`, so the
counts are identical (tests/scoring/test_m2_engines.py). Without a C compiler, or with
``GEC_M2_KERNEL=python``, :func:`build_lattice` returns the Python lattice.

Either engine stops at the budget (:mod:`.budget`) with :class:`.budget.OverBudget`; an
allocation that fails below it raises MemoryError, which nothing retries with the
Python lattice (it needs more memory than the kernel).
"""

from __future__ import annotations

import ctypes
import functools
from array import array
from pathlib import Path
from types import SimpleNamespace

from ..errant.kernels import load_library
from . import budget
from .budget import OverBudget
from .lattice import FIRST_ROW, Lattice, arc_tokens, optimal_path

SOURCE = Path(__file__).with_name("lattice_kernel.c")
ENGINE_ENV = "GEC_M2_KERNEL"
ROW = 8  # the arc's number, u's cell, w's cell, edit start, edit end, length, unchanged tokens, entries
OUT_OF_MEMORY, OVER_BUDGET = -1, -2


@functools.cache
def load_kernel() -> SimpleNamespace | None:
    """The kernel's functions, or None to use the Python lattice."""
    library = load_library(SOURCE, "m2-lattice", ENGINE_ENV)
    if library is None:
        return None
    pointer, number, wide = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64
    signatures = {
        "m2_build": (pointer, [number, number, pointer, pointer, number, number, wide, wide, pointer]),
        "m2_alignment_path": (number, [number, number, pointer, pointer, pointer]),
        "m2_free": (None, [pointer]),
        "m2_span_arcs": (number, [pointer, number, pointer, pointer, number, pointer]),
        "m2_path": (number, [pointer, number, pointer, pointer, pointer]),
    }
    functions = {}
    for name, (restype, argtypes) in signatures.items():
        function = getattr(library, name)
        function.restype, function.argtypes = restype, argtypes
        functions[name.removeprefix("m2_")] = function
    return SimpleNamespace(**functions)


def build_lattice(
    source: list[str], target: list[str], max_unchanged_words: int = 2, first_row: int | None = FIRST_ROW
):
    """The compiled lattice where the kernel loads, else the Python one; call ``close()`` after.
    ``first_row``: as :class:`.lattice.Lattice`. Raises :class:`.budget.OverBudget`."""
    kernel = load_kernel()
    if kernel is None:
        return Lattice(source, target, max_unchanged_words, first_row)
    return CompiledLattice(kernel, source, target, max_unchanged_words, first_row)


def alignment_path(source: list[str], target: list[str]) -> list[tuple[int, int]]:
    """:func:`.lattice.optimal_path`, computed by the kernel where it loads."""
    kernel = load_kernel()
    if kernel is None:
        return optimal_path(source, target)
    source_ids, target_ids = token_ids(source, target)
    cells = array("i", bytes(4 * (len(source) + len(target) + 1)))
    count = kernel.alignment_path(len(source), len(target), address(source_ids), address(target_ids), address(cells))
    if count < 0:
        raise MemoryError("M2 alignment kernel: out of memory")
    return [divmod(cell, len(target) + 1) for cell in cells[:count]]


def token_ids(source: list[str], target: list[str]) -> tuple[array, array]:
    """The tokens as small integers, equal where the strings are."""
    ids: dict[str, int] = {}
    return array("i", [ids.setdefault(t, len(ids)) for t in source]), array(
        "i", [ids.setdefault(t, len(ids)) for t in target]
    )


def address(values: array) -> int:
    """Where an ``array``'s items start, for a ``c_void_p`` argument (cheaper than numpy's)."""
    return values.buffer_info()[0]


class CompiledLattice:
    """One sentence's lattice in C memory (freed by :meth:`close`); vertices are cells
    i * width + j, as in :class:`.lattice.Lattice`."""

    _handle = None  # until built: ``close`` and ``__del__`` then free nothing

    def __init__(
        self,
        kernel: SimpleNamespace,
        source: list[str],
        target: list[str],
        max_unchanged_words: int,
        first_row: int | None = FIRST_ROW,
    ):
        self.source, self.target = source, target
        self.width = len(target) + 1
        self.end = len(source) * self.width + len(target)
        source_ids, target_ids = token_ids(source, target)
        info = (ctypes.c_int64 * 3)()
        self._kernel = kernel
        quirk = -1 if first_row is None else first_row
        self._handle = kernel.build(
            len(source),
            len(target),
            address(source_ids),
            address(target_ids),
            max_unchanged_words,
            quirk,
            budget.MAX_VERTICES,
            budget.MAX_ARCS,
            info,
        )
        if not self._handle:
            if info[0] == OVER_BUDGET:
                raise OverBudget(len(source), len(target))
            raise MemoryError("M2 lattice kernel: out of memory")
        self.n_vertices, self.n_arcs, self.size = info
        self._rows = (ctypes.c_int64 * (ROW * max(self.n_vertices, 64)))()  # room for a path's rows
        self._known: dict[
            tuple[int, int], tuple[int, int, int, int, int]
        ] = {}  # (u, w) -> number, start, length, unchanged, end

    @property
    def empty(self) -> bool:
        return self.end == 0 or self.n_vertices == 0

    def _read(self, count: int) -> list[list[int]]:
        """The first ``count`` rows written, each arc remembered for the lookups below."""
        flat = self._rows[: ROW * count]
        rows = [flat[k : k + ROW] for k in range(0, len(flat), ROW)]
        for index, u, w, start, end, length, unchanged, _ in rows:
            self._known[(u, w)] = (index, start, length, unchanged, end)
        return rows

    def span_arcs(self, spans: set[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """As :meth:`.lattice.Lattice.span_arcs`."""
        starts = array("i", [s for s, _ in spans])
        ends = array("i", [e for _, e in spans])
        while True:
            capacity = len(self._rows) // ROW
            count = self._kernel.span_arcs(
                self._handle, len(spans), address(starts), address(ends), capacity, self._rows
            )
            if count <= capacity:
                break
            self._rows = (ctypes.c_int64 * (ROW * count))()
        by_span: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for _, u, w, start, end, _, _, entries in self._read(count):
            by_span.setdefault((start, end), []).extend([(u, w)] * entries)
        for arcs in by_span.values():
            arcs.sort()
        return by_span

    def edit_arcs(self, weights: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
        """As :meth:`.lattice.Lattice.edit_arcs` (the weighted arcs come from :meth:`span_arcs`)."""
        special = array("i", [self._known[arc][0] for arc in weights])
        values = array("d", weights.values())
        count = self._kernel.path(self._handle, len(weights), address(special), address(values), self._rows)
        if count == -1:
            raise MemoryError("M2 path kernel: out of memory")
        if count < 0:
            raise IndexError("M2 path: a vertex without an offer in m2scorer's rounds")
        return [(u, w) for _, u, w, *_ in self._read(count)]

    def length(self, u: int, w: int) -> int:
        return self._known[(u, w)][2]

    def start(self, u: int, w: int) -> int:
        return self._known[(u, w)][1]

    def end_of(self, u: int, w: int) -> int:
        return self._known[(u, w)][4]

    def changes(self, u: int, w: int) -> bool:
        _, _, length, unchanged, _ = self._known[(u, w)]
        return unchanged < length

    def tokens(self, u: int, w: int) -> tuple[str, str]:
        return arc_tokens(self, u, w)

    def close(self) -> None:
        if self._handle:
            self._kernel.free(self._handle)
            self._handle = None

    def __del__(self):
        self.close()
