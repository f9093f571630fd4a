"""Controls that are surely worse: a copy is made only by undoing an edit a reference
makes too, or by dropping or doubling a word no one changes, and is kept only when it is
further from every reference than its original; a screen whose outputs give none takes
another sentence."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.campaigns.services.controls import (
    degraded,
    place_controls,
    surely_worse,
    token_distance,
    untouched,
)
from leaderboard.campaigns.services.sampling import Plan, PlannedScreen
from scoring import Edit, apply_edits


def edit(start, end, correction, kind="R:OTHER"):
    return Edit(start, end, correction, kind)


def test_token_distance():
    assert token_distance("a b c".split(), "a c".split()) == 1
    assert token_distance("a b".split(), "b a".split()) == 2
    assert token_distance([], "a b".split()) == 2


def test_a_correction_no_reference_makes_is_never_undone():
    source = "the possibilities of get work".split()
    # the output corrects "of" -> "to" as the reference does, and "work" -> "works", which no reference does
    output_edits = [edit(2, 3, "to"), edit(4, 5, "works")]
    output = apply_edits(source, output_edits)
    reference = [edit(2, 3, "to")]
    references = [(apply_edits(source, reference), reference)]
    for seed in range(40):
        made = degraded(output, source, output_edits, references, random.Random(seed))
        assert made is not None and "work" not in made  # "works" is not undone: no reference makes it
        assert surely_worse(made, output, [references[0][0]])


def test_a_reference_that_changes_nothing_forbids_undoing_but_not_dropping():
    source = "he go to school".split()
    output_edits = [edit(1, 2, "goes")]
    output = apply_edits(source, output_edits)
    references = [(apply_edits(source, [edit(1, 2, "goes")]), [edit(1, 2, "goes")]), (source, [])]
    made = degraded(output, source, output_edits, references, random.Random(0))
    assert made is not None and "goes" in made and len(made) != len(output)  # a word dropped or doubled


def test_no_copy_when_nothing_is_surely_worse():
    source = ["."]
    assert degraded(source, source, [], [(source, [])], random.Random(0)) is None


def test_words_beside_an_insertion_are_touched():
    assert untouched("a b c d".split(), [[edit(2, 2, "x")]]) == [0, 3]
    assert untouched("a b , d".split(), [[edit(0, 1, "A")]]) == [1, 3]


words = st.sampled_from(["he", "go", "goes", "to", "school", "the", "a", "."])


@st.composite
def sentences(draw):
    source = draw(st.lists(words, min_size=1, max_size=8))

    def edits_of():
        chosen = []
        for i in sorted(draw(st.sets(st.integers(0, len(source) - 1), max_size=3))):
            chosen.append(edit(i, i + 1, draw(st.sampled_from(["goes", "went", "", "to the"]))))
        return chosen

    output_edits = edits_of()
    references = []
    for _ in range(draw(st.integers(1, 3))):
        ref = edits_of() + draw(st.sampled_from([[], output_edits[:1]]))
        ref = list({(e.start, e.end): e for e in ref}.values())
        references.append((apply_edits(source, ref), ref))
    return source, apply_edits(source, output_edits), output_edits, references


@settings(max_examples=200, deadline=None)
@given(sentences(), st.integers(0, 20))
def test_any_copy_is_further_from_every_reference_and_new(case, seed):
    source, output, output_edits, references = case
    avoid = {tuple(output), tuple(references[0][0])}
    made = degraded(output, source, output_edits, references, random.Random(seed), avoid)
    if made is not None:
        assert made not in avoid
        for ref, _ in references:
            assert token_distance(made, ref) > token_distance(output, ref)


def test_a_screen_without_a_worse_copy_takes_another_sentence():
    sources = [["."], "he go to school".split()]
    lines = {
        0: [(("!",), (1,)), ((".",), (2,))],
        1: [(("he", "goes", "to", "school"), (1,)), (tuple(sources[1]), (2,))],
    }
    gold = {0: [(["."], [])], 1: [("he goes to school".split(), [edit(1, 2, "goes")])]}
    known = {
        (0, ("!",)): [edit(0, 1, "!")],
        (0, (".",)): [],
        (1, lines[1][0][0]): [edit(1, 2, "goes")],
        (1, tuple(sources[1])): [],
    }
    plan = Plan(screens=[PlannedScreen(0, list(lines[0]), control=True)], queues={1: [(0, False)]})
    controls = place_controls(
        plan, lines, sources, gold.__getitem__, lambda pairs: {p: known[p] for p in pairs}, random.Random(3)
    )
    assert set(controls) == {0} and plan.screens[0].line == 1
    original, made = controls[0]
    assert surely_worse(made, plan.screens[0].groups[original][0], [gold[1][0][0]])


@settings(max_examples=300, deadline=None)
@given(st.lists(words, max_size=9), st.lists(words, max_size=9))
def test_token_distance_is_levenshtein(a, b):
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    assert token_distance(a, b) == table[-1][-1] == token_distance(b, a)
