"""Small C kernels, compiled once per machine with the system's C compiler, loaded with ctypes.

A kernel is one C file beside its Python module. On first use it is compiled into a cache
directory, under a name keyed by the source's hash and the flags, then loaded: no build
step and no new dependency. Where no compiler is found, the build fails, or the kernel's
environment variable says ``python``, :func:`load_library` returns None and the caller
runs its pure-Python code, which computes the same results.
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

CACHE_ENV = "GEC_KERNEL_DIR"
FLAGS = ["-O2", "-ffp-contract=off", "-fPIC", "-shared"]  # no FMA: sums must round as Python's


def kernel_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gec-leaderboard" / "kernels"


def library_path(source: Path, stem: str) -> Path:
    key = hashlib.sha256(source.read_bytes() + " ".join(FLAGS).encode() + platform.machine().encode()).hexdigest()[:16]
    return kernel_dir() / f"{stem}-{key}{sysconfig.get_config_var('SHLIB_SUFFIX') or '.so'}"


def _compile(source: Path, target: Path) -> bool:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        built = Path(tmp) / target.name
        result = subprocess.run([compiler, *FLAGS, str(source), "-o", str(built), "-lm"], capture_output=True)
        if result.returncode != 0:
            return False
        os.replace(built, target)  # atomic: concurrent workers never load a half-written file
    return True


@functools.cache
def _load(source: Path, stem: str) -> ctypes.CDLL | None:
    target = library_path(source, stem)
    try:
        if not target.exists() and not _compile(source, target):
            return None
        return ctypes.CDLL(str(target))
    except OSError:
        return None


def load_library(source: Path, stem: str, engine_env: str) -> ctypes.CDLL | None:
    """The compiled ``source``, or None when ``engine_env`` is ``python`` or it cannot be built."""
    if os.environ.get(engine_env, "c") == "python":
        return None
    return _load(source, stem)
