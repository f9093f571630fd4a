"""The compiled alignment DP (``alignment_kernel.c``), built once per machine, or None.

Compiled and loaded by :mod:`scoring.errant.kernels`. Where no compiler is found, or
``GEC_ALIGNMENT_KERNEL=python``, :func:`load_kernel` returns None and
:mod:`scoring.errant.alignment` runs its pure-Python DP.
"""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path

from .kernels import load_library

SOURCE = Path(__file__).with_name("alignment_kernel.c")
ENGINE_ENV = "GEC_ALIGNMENT_KERNEL"


@functools.cache
def load_kernel():
    """``errant_align`` from the compiled library, or None to use the Python DP."""
    library = load_library(SOURCE, "alignment", ENGINE_ENV)
    if library is None:
        return None
    function = library.errant_align
    function.restype = ctypes.c_int
    # n, m, orig features, cor features, open POS ids, their count,
    # char costs of distinct word pairs, orig's word numbers, cor's, cor's distinct words, lev, cost, ops, path
    function.argtypes = (
        [ctypes.c_int, ctypes.c_int]
        + [ctypes.c_void_p] * 3
        + [ctypes.c_int]
        + [ctypes.c_void_p] * 3
        + [ctypes.c_int, ctypes.c_int]
        + [ctypes.c_void_p] * 3
    )
    return function
