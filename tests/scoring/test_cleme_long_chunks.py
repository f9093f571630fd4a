"""CLEME on valid lines with chunks far longer than the length bias (``math.exp``
overflowed past ~710 tokens and the upload failed with "math range error")."""

import pytest

from scoring import Dataset, ScoringOptions, build_metrics, read_hypothesis, read_m2
from scoring.cleme.matching import FN, FP_NE, FP_UN, TP
from scoring.cleme.weighting import CORPUS, SETTINGS, length_weight
from scoring.cli.main import main

GOLD = (
    b"S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\nS She like cats .\nA 1 "
    b"2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n"
)


def long_insertion(n_tokens: int) -> bytes:
    words = " ".join(["word"] * n_tokens)
    return f"S He go home .\nA 0 0|||M:OTHER|||{words}|||REQUIRED|||-NONE-|||0\n\nS She like cats .\n".encode()


@pytest.mark.parametrize("outcome", [TP, FP_NE, FP_UN, FN])
@pytest.mark.parametrize("length", [711, 1000, 10**6])
def test_weight_of_a_huge_chunk_is_the_clip_bound(outcome, length):
    for settings in (CORPUS, *SETTINGS.values()):
        sigmoid = settings.tp if outcome == TP else settings.fn if outcome == FN else settings.fp
        expected = sigmoid.hi if outcome in (TP, FN) else sigmoid.lo
        assert length_weight(outcome, length, 2.0, settings) == expected


@pytest.mark.parametrize("metric", ["cleme", "cleme2"])
def test_a_900_token_chunk_scores(metric):
    dataset = Dataset.from_m2(read_m2(GOLD))
    hypothesis = read_hypothesis(dataset, long_insertion(900), "long", filename="long.m2")
    (built,) = build_metrics([metric], ScoringOptions())
    built.prepare(dataset)
    scores = built.score(built.statistics(dataset, hypothesis))
    assert scores["dependent"]["corpus"]


def test_cli_scores_a_long_valid_line_without_a_traceback(tmp_path, capsys):
    (tmp_path / "gold.m2").write_bytes(GOLD)
    (tmp_path / "long.txt").write_text(" ".join(["word"] * 990) + " He goes home .\nShe likes cats .\n")
    code = main(["--m2", str(tmp_path / "gold.m2"), "--hyp", f"long={tmp_path / 'long.txt'}", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert '"cleme2"' in out.out and '"usim"' in out.out
