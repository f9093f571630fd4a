"""GTS's own demo (gotutiyan/GTS 5d120c3, demo/), reproduced number for number.

The expected file holds what the original ``gotoscorer.py`` printed: weighted and
``-no_weight`` scores (with ``-v``), scoring with ``-w_file``, ``-cat 3``, the chunk
visualiser and the ``-gen_w_file`` weight file.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring.gotoscorer import (
    Pool,
    category_difficulty,
    coder_edits,
    corpus_chunks,
    flatten,
    format_difficulty,
    heatmap_rows,
    member_scores,
    render_chunk_visualiser,
)
from scoring.gotoscorer.outcomes import Outcomes, system_outcomes
from scoring.readers import read_m2
from tests.conftest import SEEDA

DEMO = SEEDA / "gts_demo"
COLUMNS = ("tp", "fp", "fn", "tn", "p", "r", None, "f", "accuracy")  # GTS prints F1 too; we give F_beta


def expected_sections() -> dict[str, str]:
    """The expected output file split at each ``$ command`` line."""
    sections: dict[str, str] = {}
    command = None
    for line in (DEMO / "expected_outputs_GTS_5d120c3.txt").read_text().splitlines():
        if line.startswith("$ "):
            command = line
            sections[command] = ""
        else:
            sections[command] += line + "\n"
    return sections


def section(fragment: str) -> str:
    matches = [text for command, text in expected_sections().items() if command.endswith(fragment)]
    assert len(matches) == 1, fragment
    return matches[0]


def score_rows(text: str) -> dict[str, list[float]]:
    """``{system id: [TP, FP, FN, TN, P, R, F, F0.5, Acc]}`` from a ``-v`` score table."""
    rows = {}
    for line in text.splitlines():
        if ":\t" in line:
            name, values = line.split(":\t")
            rows[name.strip()] = [float(v) for v in values.split()]
    return rows


def assert_matches_printed(scores: dict, printed: list[float]) -> None:
    for key, value in zip(COLUMNS, printed):
        if key is not None:
            assert f"{scores[key]:.4f}" == f"{value:.4f}", key


def outcomes_of(gold: list, sources: list, edits: list) -> Outcomes:
    per_sentence = system_outcomes(gold, sources, edits)
    return Outcomes(*(np.array([o[j] for sentence in per_sentence for o in sentence]) for j in (0, 1)))


@pytest.fixture(scope="module")
def demo():
    """(gold chunks, per-sentence gold chunks, sources, the pool of the 3 demo systems)."""
    ref = read_m2(DEMO / "ref.m2")
    gold = corpus_chunks(ref.sources, [block.get(0) for block in ref.annotations])
    members = {
        str(k): outcomes_of(gold, ref.sources, edits) for k, edits in enumerate(coder_edits(read_m2(DEMO / "hyp.m2")))
    }
    gold_modified = np.array([c.modified for c in flatten(gold)])
    return flatten(gold), gold, ref.sources, Pool.of(gold_modified, members)


def test_three_systems_are_the_pool(demo):
    *_, pool = demo
    assert pool.size == 3
    assert section("-hyp demo/hyp.m2 -v").startswith("Number of systems: 3")


@pytest.mark.parametrize(("command", "weighted"), [("-hyp demo/hyp.m2 -v", True), ("-v -no_weight", False)])
def test_scores(demo, command, weighted):
    *_, pool = demo
    printed = score_rows(section(command))
    scores = pool.all_scores(weighted=weighted)
    assert sorted(printed) == sorted(scores)
    for name, row in printed.items():
        assert_matches_printed(scores[name], row)


def test_weight_file(demo):
    """``-gen_w_file`` writes N, then n_i per chunk; ``-w_file`` scores with them."""
    gold, _, _, pool = demo
    lines = section("-gen_w_file output:").split()
    size, counts = int(lines[0]), np.array([int(x) for x in lines[1:]])
    assert size == pool.size
    assert pool.n.tolist() == counts.tolist()
    weight_txt = (DEMO / "weight.txt").read_text().split()
    assert [int(x) for x in weight_txt] == [size, *counts.tolist()]

    # -w_file with the one-system file hyp_1sys.m2: its system is system 0 of hyp.m2.
    _, per_sentence, sources, _ = demo
    (edits,) = coder_edits(read_m2(DEMO / "hyp_1sys.m2"))
    outcomes = outcomes_of(per_sentence, sources, edits)
    gold_modified = np.array([c.modified for c in gold])
    scores = member_scores(gold_modified, outcomes.modified, outcomes.correct, counts, size)
    (row,) = score_rows(section("-w_file demo/weight.txt -v")).values()
    assert_matches_printed(scores, row)


def test_category_difficulty(demo):
    gold, _, _, pool = demo
    table = format_difficulty(category_difficulty(gold, pool.weights(), 3))
    assert table == section("-cat 3").strip("\n")


def test_chunk_visualiser(demo):
    gold, _, _, pool = demo
    rows = heatmap_rows(gold, pool.n, pool.size, false_positives=pool.false_positives)
    assert render_chunk_visualiser(rows).rstrip("\n") == section("-cv None").rstrip("\n")
    assert json.loads(json.dumps(rows)) == rows  # storable as JSON
    assert rows[1][3] == {
        "start": 1,
        "end": 3,
        "source": "have been",
        "correction": "go",
        "type": "R:VERB",
        "modified": True,
        "n": 1,
        "weight": pytest.approx(2 / 3),
        "false_positives": 2,
    }
