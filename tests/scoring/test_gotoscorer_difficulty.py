"""Per-type difficulty (the paper's Table 4): weights of gold edits grouped at cat 1/2/3."""

import pytest

from scoring.gotoscorer import GoldChunk, category_difficulty


def edit(etype: str) -> GoldChunk:
    return GoldChunk(0, 0, 0, 1, "a", "b", etype, True)


CHUNKS = [edit("R:VERB:FORM"), edit("M:VERB:FORM"), edit("R:NOUN"), GoldChunk(0, 1, 1, 2, "c", "c", "", False)]
WEIGHTS = [1.0, 0.5, 0.25, 0.9]  # the unmodified chunk's weight never counts


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (1, [("R", 0.625, 0.5303300858899106, 2), ("M", 0.5, 0.0, 1)]),
        (2, [("VERB:FORM", 0.75, 0.3535533905932738, 2), ("NOUN", 0.25, 0.0, 1)]),
        (3, [("R:VERB:FORM", 1.0, 0.0, 1), ("M:VERB:FORM", 0.5, 0.0, 1), ("R:NOUN", 0.25, 0.0, 1)]),
    ],
)
def test_levels(level, expected):
    rows = category_difficulty(CHUNKS, WEIGHTS, level)
    assert [(r["type"], r["mean"], r["std"], r["freq"]) for r in rows] == [
        (t, pytest.approx(m), pytest.approx(s), f) for t, m, s, f in expected
    ]


def test_bad_level():
    with pytest.raises(ValueError):
        category_difficulty(CHUNKS, WEIGHTS, 4)
