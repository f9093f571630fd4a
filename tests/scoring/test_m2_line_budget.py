"""A line whose M2 lattice is over the budget is scored in parts, within a bounded memory,
and the result says so (one 600-token line against a 19-token source needed
3 GB, a 999-token one took a worker to 6 GB)."""

import json
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, read_hypothesis, read_m2
from scoring.m2 import budget, compiled
from scoring.m2.search import GoldEdit
from scoring.m2.sentence import line_counts
from scoring.metrics.m2 import M2
from scoring.options import ScoringOptions
from tests.conftest import ROOT
from tests.support import needs

CEILING_MB = 1024
WORST = """
import json, random
from scoring.m2.search import GoldEdit
from scoring.m2.sentence import line_counts
rng = random.Random(7)
words = [f"w{k}" for k in range(3000)]
source = [rng.choice(words) for _ in range(SOURCE)]
output = [rng.choice(words) for _ in range(OUTPUT)]
golds = [GoldEdit(s, s + 1, source[s], (output[s],), "R:X") for s in range(0, len(source), 5)]
line = line_counts(source, output, [golds, []])
print(json.dumps({"capped": line.capped, "rows": [row[:3] for row in line.rows]}))
"""


def under_ceiling():
    limit = CEILING_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


@pytest.mark.parametrize("source_tokens, output_tokens", [(19, 600), (20, 999), (1000, 1000)])
def test_worst_lines_are_scored_within_a_gigabyte(source_tokens, output_tokens):
    code = WORST.replace("SOURCE", str(source_tokens)).replace("OUTPUT", str(output_tokens))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, preexec_fn=under_ceiling, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    line = json.loads(done.stdout)
    golds = len(range(0, source_tokens, 5))
    assert line["capped"]
    (correct, proposed, gold), (_, proposed_without, gold_without) = line["rows"]
    assert (gold, gold_without) == (golds, 0)
    assert 0 <= correct <= golds and proposed >= 1 and proposed_without >= 1


SOURCE = "we saw a cat on the mat and then the dog ran off to the park in the rain yesterday".split()
OUTPUT = "we saw the cat on the mat and then a big dog ran to the park in rain yesterday !".split()
ANNOTATORS = [
    [
        GoldEdit(2, 3, "a", ("the",), "R:DET"),
        GoldEdit(10, 10, "", ("big",), "M:ADJ"),
        GoldEdit(12, 13, "off", ("",), "U:PART"),
        GoldEdit(16, 17, "the", ("",), "U:DET"),
    ],
    [GoldEdit(9, 10, "the", ("a",), "R:DET"), GoldEdit(19, 19, "", ("!",), "M:PUNCT")],
]


@pytest.mark.parametrize("max_arcs", [60, 90])
def test_parts_that_no_edit_crosses_count_as_the_whole_line(monkeypatch, max_arcs):
    exact = line_counts(SOURCE, OUTPUT, ANNOTATORS)
    assert not exact.capped
    monkeypatch.setattr(budget, "MAX_ARCS", max_arcs)
    capped = line_counts(SOURCE, OUTPUT, ANNOTATORS)
    assert capped.capped
    assert capped.rows == exact.rows


def test_a_gold_edit_across_a_cut_counts_as_missed(monkeypatch):
    source, output = ["a", "b", "c", "d"], ["w", "x", "y", "z"]
    whole = [GoldEdit(0, 4, "a b c d", ("w x y z",), "R:OTHER")]
    assert line_counts(source, output, [whole]).rows[0][:3] == [1, 1, 1]
    monkeypatch.setattr(budget, "MAX_ARCS", 8)
    line = line_counts(source, output, [whole])
    assert line.capped
    correct, proposed, gold, types = line.rows[0]
    assert (correct, gold, types["R:OTHER"]) == (0, 1, [0, 0, 1])
    assert proposed >= 2


WORDS = ["the", "a", "cat", "sat", ".", ","]


@st.composite
def long_line(draw):
    source = draw(st.lists(st.sampled_from(WORDS), min_size=4, max_size=24))
    target = draw(st.lists(st.sampled_from(WORDS), min_size=4, max_size=24))
    golds = []
    for start in sorted(draw(st.lists(st.integers(0, len(source) - 1), max_size=5))):
        end = draw(st.integers(start, min(len(source), start + 2)))
        golds.append(GoldEdit(start, end, " ".join(source[start:end]), (draw(st.sampled_from(WORDS)),), "T"))
    return source, target, [golds]


@needs.needs(
    compiled.load_kernel() is not None, "a C compiler (cc) for the compiled M2 lattice; only the Python one runs"
)
@settings(max_examples=150, deadline=None)
@given(long_line(), st.integers(20, 200))
def test_both_engines_cut_and_count_alike(case, max_arcs):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(budget, "MAX_ARCS", max_arcs)
        kernel = line_counts(*case)
        patch.setattr(compiled, "load_kernel", lambda: None)
        python = line_counts(*case)
    assert kernel == python


GOLD = """S we saw a cat
A 2 3|||R:DET|||the|||REQUIRED|||-NONE-|||0

S a b c d e f g h
A 0 1|||R:OTHER|||x|||REQUIRED|||-NONE-|||0
"""


def test_the_metric_names_its_capped_lines(tmp_path, monkeypatch):
    path = tmp_path / "gold.m2"
    path.write_text(GOLD)
    dataset = Dataset.from_m2(read_m2(path))
    output = "we saw the cat\n" + " ".join(f"v{k}" for k in range(40)) + "\n"
    hypothesis = read_hypothesis(dataset, output.encode(), "system")
    monkeypatch.setattr(budget, "MAX_ARCS", 2000)
    metric = M2(ScoringOptions())
    statistics = metric.statistics(dataset, hypothesis)
    assert statistics["capped"] == [2]
    assert metric.score(statistics)["capped_lines"] == 1
    del statistics["capped"]
    assert "capped_lines" not in metric.score(statistics)
