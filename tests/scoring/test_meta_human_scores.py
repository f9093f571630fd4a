"""Human system scores: SYSTEM SCORE lines, SEEDA's bare scores, every bad line named."""

from __future__ import annotations

import pytest

from scoring import InputError
from scoring.meta import read_human_scores
from tests.conftest import SEEDA_SYSTEMS
from tests.support.meta_support import HUMAN


def test_named_lines():
    assert read_human_scores(b"BART 0.25\n\nT5\t-1e-3\r\n") == {"BART": 0.25, "T5": -0.001}


def test_seeda_bare_scores_follow_the_names_given():
    scores = read_human_scores(HUMAN / "TS_sent.txt", SEEDA_SYSTEMS)
    assert list(scores) == SEEDA_SYSTEMS
    assert scores["BART"] == -0.300 and scores["REF-F"] == 0.992 and scores["UEDIN-MS"] == -0.179


def test_bare_scores_without_names_or_with_a_wrong_count():
    with pytest.raises(InputError, match="need the system names"):
        read_human_scores(b"0.1\n0.2\n")
    with pytest.raises(InputError, match="2 bare scores for 3 systems"):
        read_human_scores(b"0.1\n0.2\n", ["A", "B", "C"])


def test_every_bad_line_is_named():
    with pytest.raises(InputError) as caught:
        read_human_scores(b"A 0.1\nB zero\nC 1 2\nA 0.3\nD nan\n")
    assert [(p.line, p.message) for p in caught.value.problems] == [
        (2, "'zero' is not a number"),
        (3, "expected SYSTEM_NAME SCORE, got 3 fields"),
        (4, "system 'A' scored twice"),
        (5, "'nan' is not a finite number"),
    ]


def test_empty_and_undecodable_files():
    with pytest.raises(InputError, match="no scores"):
        read_human_scores(b"\n \n")
    with pytest.raises(InputError, match="invalid UTF-8"):
        read_human_scores(b"A \xff\n")
