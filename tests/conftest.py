"""Shared fixtures: paths into ../shared and datasets prepared once per test session."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDA = SHARED / "data" / "seeda"
SUBSET_OUTPUTS = SEEDA / "seeda" / "outputs" / "subset"
SUBSET_REFS = [SEEDA / "derived" / "subset" / "REF0.txt", SEEDA / "derived" / "subset" / "REF1.txt"]
GOLDEN = SHARED / "golden"
CLEME_DATA = SHARED / "data" / "cleme"
SEEDA_SYSTEMS = sorted(p.stem for p in SUBSET_OUTPUTS.glob("*.txt"))


@pytest.fixture(scope="session")
def seeda_subset():
    """The 391-sentence SEEDA subset with references REF0/REF1, parsed once."""
    from scoring import Dataset

    return Dataset.from_files(source=SUBSET_OUTPUTS / "INPUT.txt", refs=SUBSET_REFS)


@pytest.fixture(scope="session")
def seeda_hypotheses(seeda_subset):
    """All 15 SEEDA subset systems annotated against :func:`seeda_subset`, by name."""
    from scoring import read_hypothesis

    return {name: read_hypothesis(seeda_subset, SUBSET_OUTPUTS / f"{name}.txt", name) for name in SEEDA_SYSTEMS}
