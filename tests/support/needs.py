"""What a test needs from the machine, in one place: PostgreSQL, Redis, nginx, Chromium,
a C compiler, an installed package, a kernel feature.

Without it, the test skips and says why, and the run ends with one line counting those
skips (tests/conftest.py). With ``CI`` set in the environment (``.ci/run`` sets it; CI
services set it too), a missing part fails the test instead: if PostgreSQL failed to
start on CI, the platform tests must not skip and let CI pass. Every skip for a missing
part of the platform goes through :func:`missing` (tests/platform/test_ci_guard.py checks that no
test file skips another way). Data that cannot be redistributed (SEEDA) has its own
guard in tests/conftest.py.

Nothing here imports Django, so a test can load it in a bare interpreter.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

PREFIX = "missing from this machine: "  # what the session's summary counts
OFF = ("", "0", "false", "no")


def on_ci() -> bool:
    """``CI`` is set (to anything but 0/false/no, as GitHub, GitLab and .ci/run set it)."""
    return os.environ.get("CI", "").strip().lower() not in OFF


def missing(what: str) -> NoReturn:
    """Skip the test (or the test file, when called as it is imported) because ``what``
    is missing; on CI, fail it."""
    if on_ci():
        pytest.fail(f"{PREFIX}{what}; CI is set, so this fails instead of skipping", pytrace=False)
    pytest.skip(PREFIX + what, allow_module_level=True)


def needs(available: bool, what: str) -> pytest.MarkDecorator:
    """A mark for a test (or, as ``pytestmark``, a file) that needs ``what``:
    ``available`` is checked once, when the file is imported, and acted on by
    :func:`check_marks` before each test runs."""
    return pytest.mark.needs(available=bool(available), what=what)


def check_marks(item: pytest.Item) -> None:
    """Called by tests/conftest.py before each test: the first unmet ``needs`` mark."""
    for mark in item.iter_markers("needs"):
        if not mark.kwargs["available"]:
            missing(mark.kwargs["what"])


def package(name: str, why: str = "pip install -r requirements-dev.txt installs it") -> ModuleType:
    """The imported package, or :func:`missing` (pytest.importorskip, with the CI guard)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing(f"the package {name} is not installed ({why})")


def postgresql(vendor: str) -> pytest.MarkDecorator:
    """The test session runs on PostgreSQL (leaderboard/settings_test.py falls back to
    SQLite when none answers); ``vendor`` is ``django.db.connection.vendor``."""
    return needs(
        vendor == "postgresql",
        "PostgreSQL at 127.0.0.1:5432 (the session fell back to SQLite; scripts/services starts it)",
    )
