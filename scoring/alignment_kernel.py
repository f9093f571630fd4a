"""The compiled alignment DP (``alignment_kernel.c``), built once per machine, or None.

The C source is compiled with the system's C compiler on first use into a cache
directory keyed by the source's hash, then loaded with ctypes: no build step, no new
dependency. Where no compiler is found, or ``GEC_ALIGNMENT_KERNEL=python``,
:func:`load_kernel` returns None and :mod:`scoring.alignment` runs its pure-Python DP.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import platform
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("alignment_kernel.c")
ENGINE_ENV = "GEC_ALIGNMENT_KERNEL"
CACHE_ENV = "GEC_KERNEL_DIR"
FLAGS = ["-O2", "-ffp-contract=off", "-fPIC", "-shared"]  # no FMA: sums must round as Python's


def kernel_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gec-leaderboard" / "kernels"


def library_path() -> Path:
    key = hashlib.sha256(SOURCE.read_bytes() + " ".join(FLAGS).encode() + platform.machine().encode()).hexdigest()[:16]
    return kernel_dir() / f"alignment-{key}{sysconfig.get_config_var('SHLIB_SUFFIX') or '.so'}"


def _compile(target: Path) -> bool:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        built = Path(tmp) / target.name
        result = subprocess.run([compiler, *FLAGS, str(SOURCE), "-o", str(built), "-lm"], capture_output=True)
        if result.returncode != 0:
            return False
        os.replace(built, target)  # atomic: concurrent workers never load a half-written file
    return True


@functools.cache
def load_kernel():
    """``errant_align`` from the compiled library, or None to use the Python DP."""
    if os.environ.get(ENGINE_ENV, "c") == "python":
        return None
    target = library_path()
    try:
        if not target.exists() and not _compile(target):
            return None
        function = ctypes.CDLL(str(target)).errant_align
    except OSError:
        return None
    function.restype = ctypes.c_int
    function.argtypes = [ctypes.c_int, ctypes.c_int] + [ctypes.c_void_p] * 4 + [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    return function
