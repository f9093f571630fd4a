"""The test lanes (README, "Tests in lanes"): each folder of ``tests/`` is an area, and a
test under ``browser/``, ``proxy/``, ``platform/`` or ``bench/`` carries that area's marker,
so ``-m "not browser"`` (or ``bash scripts/test --fast``) leaves a whole area out without
each file saying so; a parity test over whole corpora is ``slow`` by its name. Loaded
by ``tests/conftest.py`` (``pytest_plugins``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
MARKED_AREAS = ("browser", "proxy", "platform", "bench")
# Parity against the reference tools over whole corpora (SEEDA's 15 systems, CoNLL-14,
# MultiGEC) and fuzzing (thousands of generated requests): slow wherever they sit.
SLOW_NAMES = re.compile(r"_parity|_seeda|seeda_|_correlation|_fuzz")


SLICES = ("campaigns",)  # a slice's tests sit in area folders of its own: tests/campaigns/web/


def area_of(path: Path) -> str:
    """The first folder under ``tests/`` (or under a slice's folder; "" for a file at the top)."""
    try:
        parts = path.resolve().relative_to(TESTS).parts
    except ValueError:
        return ""
    if parts and parts[0] in SLICES:
        parts = parts[1:]
    return parts[0] if len(parts) > 1 else ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        area = area_of(Path(str(item.path)))
        if area in MARKED_AREAS:
            item.add_marker(getattr(pytest.mark, area))
        if SLOW_NAMES.search(Path(str(item.path)).stem):
            item.add_marker(pytest.mark.slow)
