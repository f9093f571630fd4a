"""The compiled M2 lattice (lattice_kernel.c) and the Python one give identical results:
the same edge-list length, vertices and arcs, the same arcs on gold spans, and the same
edit sequence per annotator, on every sentence of the 15 SEEDA subset systems, on BART's
full CoNLL-2014 output (line 333 included) and on random small sentences full of ties."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset
from scoring.errant.kernels import load_library
from scoring.m2 import compiled
from scoring.m2.compiled import CompiledLattice, build_lattice, load_kernel
from scoring.m2.gold import gold_sets
from scoring.m2.lattice import Lattice
from scoring.m2.search import GoldEdit, gold_weights, system_edits
from scoring.readers import read_text
from tests.conftest import NOT_SHIPPED, SEEDA, SEEDA_SYSTEMS, SUBSET_OUTPUTS
from tests.support import needs

SUBSET_M2 = SEEDA / "derived" / "subset" / "official-2014.combined.subset391.m2"
CONLL = SEEDA / "conll14" / "official-2014.combined.m2"
BART_ALL = SEEDA / "seeda" / "outputs" / "all" / "BART.txt"

pytestmark = needs.needs(
    load_kernel() is not None, "a C compiler (cc) for the compiled M2 lattice; only the Python one runs"
)


def assert_same(source: list[str], target: list[str], sets: list[list[GoldEdit]], max_unchanged_words: int = 2) -> None:
    python = Lattice(source, target, max_unchanged_words)
    kernel = CompiledLattice(load_kernel(), source, target, max_unchanged_words)
    try:
        assert (kernel.size, kernel.n_vertices, kernel.empty) == (python.size, len(python.vertices), python.empty)
        assert kernel.n_arcs == sum(map(len, python.arcs.values()))
        for golds in sets:
            spans = {(g.start, g.end) for g in golds}
            if spans:
                assert kernel.span_arcs(spans) == python.span_arcs(spans)
            if not python.empty:
                weights = gold_weights(python, golds)
                assert gold_weights(kernel, golds) == weights  # floats compared exactly
                assert kernel.edit_arcs(weights) == python.edit_arcs(weights)
            assert system_edits(kernel, golds) == system_edits(python, golds)
    finally:
        kernel.close()


def assert_same_on(dataset: Dataset, outputs: list[list[str]]) -> None:
    for i, (source, output) in enumerate(zip(dataset.sources, outputs)):
        if source != output:
            assert_same(source, output, [golds for _, golds in gold_sets(dataset, i)])


@pytest.fixture(scope="module")
def subset():
    return Dataset.from_files(m2=SUBSET_M2)


@pytest.mark.parametrize("system", SEEDA_SYSTEMS)
def test_every_sentence_of_the_golden_systems(subset, system):
    outputs = [line.split() for line in read_text(SUBSET_OUTPUTS / f"{system}.txt", expected_lines=len(subset))]
    assert_same_on(subset, outputs)


@pytest.mark.skipif(not CONLL.exists() or not BART_ALL.exists(), reason=NOT_SHIPPED)
def test_bart_on_the_full_test_set():
    dataset = Dataset.from_files(m2=CONLL)
    lines = BART_ALL.read_text(encoding="utf-8").split("\n")[: len(dataset)]
    assert_same_on(dataset, [line.split() for line in lines])


WORDS = ["the", "a", "cat", "sat", ".", ","]


@st.composite
def sentence_and_gold(draw):
    """A source, an output from the same few words (ties and unchanged runs abound), and
    two annotators' edits on random spans (insertions included), corrected to output words."""
    source = draw(st.lists(st.sampled_from(WORDS), max_size=12))
    target = draw(st.lists(st.sampled_from(WORDS), max_size=12))
    sets = []
    for _ in range(2):
        golds = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, len(source)))
            end = draw(st.integers(start, min(len(source), start + 2)))
            corrections = tuple(
                " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=2))) for _ in range(draw(st.integers(1, 2)))
            )
            golds.append(GoldEdit(start, end, " ".join(source[start:end]), corrections, "T"))
        golds.sort(key=lambda g: (g.start, g.end))
        sets.append(golds)
    return source, target, sets


@settings(max_examples=400, deadline=None)
@given(sentence_and_gold(), st.integers(0, 3))
def test_random_sentences(case, max_unchanged_words):
    assert_same(*case, max_unchanged_words)


def test_python_lattice_without_the_kernel(monkeypatch):
    monkeypatch.setattr(compiled, "load_kernel", lambda: None)
    assert isinstance(build_lattice(["a", "cat"], ["the", "cat"]), Lattice)
    monkeypatch.undo()
    lattice = build_lattice(["a", "cat"], ["the", "cat"])
    assert isinstance(lattice, CompiledLattice)
    lattice.close()
    lattice.close()  # closing twice frees once


def test_environment_selects_python(monkeypatch):
    monkeypatch.setenv(compiled.ENGINE_ENV, "python")
    assert load_library(compiled.SOURCE, "m2-lattice", compiled.ENGINE_ENV) is None
    monkeypatch.delenv(compiled.ENGINE_ENV)
    assert os.environ.get(compiled.ENGINE_ENV) is None
    assert load_library(compiled.SOURCE, "m2-lattice", compiled.ENGINE_ENV) is not None
