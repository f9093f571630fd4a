"""Every test module sits in the folder of its area (tests/house_areas.py), so the README's
lanes, which run folders, run what they say: a test of the library in tests/web, or one
that needs Django in tests/scoring, would run in the wrong lane."""

from __future__ import annotations

from tests.conftest import ROOT
from tests.house_areas import area_of_test, needs_django
from tests.lanes import SLICES


def test_every_test_module_is_in_its_area_folder():
    needs = needs_django(ROOT / "tests" / "conftest.py")
    misplaced = [
        f"{path.relative_to(ROOT)}: belongs in tests/{area}/"
        for folder in ("", *(f"{name}/" for name in SLICES))
        for path in sorted((ROOT / "tests").glob(f"{folder}*/test_*.py"))
        if (area := area_of_test(path, needs)) != path.parent.name
    ]
    assert not misplaced, "\n".join(misplaced)
