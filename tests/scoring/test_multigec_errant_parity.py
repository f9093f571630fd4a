"""With the ``tokens`` pipeline, ERRANT's edits and TP/FP/FN in every mode equal stock ERRANT
3.0.2 on a blank spaCy pipeline (``errant_parallel`` + ``errant_compare``, MultiGEC-2025's
chain), on UA-GEC train: paragraphs, and whole essays as MultiGEC's lines are."""

import pytest

from scoring import Dataset, Limits, hypothesis_from_lines, read_hypothesis, read_m2, score_systems
from tests.support import needs
from tests.support.multigec_support import MODES, SYSTEMS, stock_compare, stock_m2, ua_gec_lines

needs.package("ua_gec", "the UA-GEC corpus, CC BY 4.0; requirements-dev.txt pins it")

UNITS = {"paragraph": 240, "essay": 8}
ESSAYS = Limits(line_tokens=5000)  # MultiGEC's lines are whole essays


@pytest.fixture(scope="module", params=list(UNITS))
def corpus(request):
    sources, references, systems = ua_gec_lines("train", UNITS[request.param], request.param)
    dataset = Dataset.from_text(sources, references, lang="uk", pipeline="tokens")
    return sources, references, systems, dataset, stock_m2("uk", sources, references)


def m2_edits(m2: str, coder: int) -> list[list[tuple]]:
    """Per block, (start, end, correction) of the coder's A lines, noops left out."""
    found = []
    for block in m2.strip().split("\n\n"):
        edits = []
        for line in block.split("\n")[1:]:
            fields = line[2:].split("|||")
            start, end = map(int, fields[0].split())
            if int(fields[-1]) == coder and fields[1] != "noop":
                edits.append((start, end, fields[2] if fields[2] != "-NONE-" else ""))
        found.append(edits)
    return found


def test_reference_edits_are_stock_errant_edits(corpus):
    _, _, _, dataset, reference_m2 = corpus
    for k, reference in enumerate(dataset.references):
        assert [[(e.start, e.end, e.correction) for e in edits] for edits in reference.edits] == m2_edits(
            reference_m2, k
        )


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_counts_in_every_mode_equal_errant_compare(corpus, system):
    sources, _, systems, dataset, reference_m2 = corpus
    hypothesis = hypothesis_from_lines(dataset, systems[system], system)
    ours = score_systems(dataset, [hypothesis], ["errant"]).systems[system]["errant"]
    hypothesis_m2 = stock_m2("uk", sources, [systems[system]])
    for mode in MODES:
        assert (ours[mode]["tp"], ours[mode]["fp"], ours[mode]["fn"]) == stock_compare(
            hypothesis_m2, reference_m2, mode
        ), mode


@pytest.mark.parametrize("system", ["odd"])
def test_counts_equal_errant_compare_against_multigecs_own_m2_files(corpus, system):
    """References given as MultiGEC's M2 files (their degenerate types as given): the
    text system's edits keep stock ERRANT's type for ``cse``, an M2 system its own."""
    sources, _, systems, _, reference_m2 = corpus
    dataset = Dataset.from_m2(read_m2(reference_m2.encode(), limits=ESSAYS), lang="uk", pipeline="tokens")
    hypothesis_m2 = stock_m2("uk", sources, [systems[system]])
    from_text = hypothesis_from_lines(dataset, systems[system], "text")
    from_m2 = read_hypothesis(dataset, hypothesis_m2.encode(), "m2", filename="system.m2", limits=ESSAYS)
    result = score_systems(dataset, [from_text, from_m2], ["errant"]).systems
    for mode in MODES:
        expected = stock_compare(hypothesis_m2, reference_m2, mode)
        for name in ("text", "m2"):
            ours = result[name]["errant"][mode]
            assert (ours["tp"], ours["fp"], ours["fn"]) == expected, (name, mode)


def test_stock_types_on_ukrainian_are_the_degenerate_six(corpus):
    """What MultiGEC's M2 files carry on UA-GEC: why the library types edits itself."""
    reference_m2 = corpus[4]
    types = {line.split("|||")[1] for line in reference_m2.splitlines() if line.startswith("A ")} - {"noop"}
    assert types <= {"R:MORPH", "R:OTHER", "M:OTHER", "U:OTHER", "R:ORTH", "R:WO"}
