"""The per-file limits are the site's settings (GEC_MAX_FILE_TOKENS, GEC_MAX_FILE_CHARS):
their defaults refuse a file past 250,000 tokens or 2,500,000 characters, on the gold, the
prepared dataset and an output alike; raised, the same files are taken."""

import pytest
from django.test import override_settings

import scoring
from leaderboard.models import Dataset, Phase
from leaderboard.services.data.datasets import parse_text_gold
from leaderboard.services.data.gold import check_gold
from leaderboard.services.submissions.intake import check_file

LINES = 1000
MANY_TOKENS = "".join("w " * 250 + "x .\n" for _ in range(LINES))  # 252,000 tokens, 504,000 characters
LONG_WORDS = "".join("abcdefghij" * 260 + " .\n" for _ in range(LINES))  # 2,000 tokens, 2,602,000 characters


def refused(call) -> list[str]:
    with pytest.raises(scoring.InputError) as raised:
        call()
    return [str(problem) for problem in raised.value.problems]


def gold(text: str):
    return check_gold(source=("source.txt", text.encode()), references=[("ref.txt", text.encode())])


def output(text: str) -> None:
    phase = Phase(dataset=Dataset(n_sentences=LINES, max_tokens=5000))
    check_file(phase, text.encode(), "out.txt")


def test_the_defaults_are_the_librarys():
    limits = Dataset(max_tokens=300).limits()
    assert (limits.line_tokens, limits.file_tokens, limits.file_chars) == (300, 250_000, 2_500_000)
    assert limits.line_chars == scoring.DEFAULT_LIMITS.line_chars


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (MANY_TOKENS, "source.txt: line 993: the file reaches 250236 tokens here, over the limit of 250000 per file"),
        (LONG_WORDS, "source.txt: line 961: the file reaches 2500522 characters here, over the limit of 2500000"),
    ],
    ids=["tokens", "characters"],
)
def test_a_file_past_a_default_total_is_refused_by_line(text, says):
    found = refused(lambda: gold(text))
    assert found[0].startswith(says), found[:2]
    assert any("over the limit of" in problem for problem in refused(lambda: output(text)))


@pytest.mark.parametrize("text", [MANY_TOKENS, LONG_WORDS], ids=["tokens", "characters"])
def test_raised_settings_take_the_same_files(text):
    with override_settings(GEC_MAX_FILE_TOKENS=300_000, GEC_MAX_FILE_CHARS=3_000_000):
        assert gold(text).n_sentences == LINES
        output(text)
        assert len(parse_text_gold(text, [("ref", text)], lang="en", pipeline="tokens")) == LINES


def test_lowered_settings_refuse_a_small_output():
    with override_settings(GEC_MAX_FILE_TOKENS=10):
        assert refused(lambda: output("a b c d e f\n" * LINES)) == [
            "out.txt: line 2: the file reaches 12 tokens here, over the limit of 10 per file"
        ]
