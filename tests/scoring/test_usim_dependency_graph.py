"""The dependency graph: one unit per head, spanning its subtree, labelled with its relation."""

from __future__ import annotations

from scoring.nlp import parse_tokens
from scoring.usim import GRAPH_BUILDERS, DependencyGraphBuilder


def units_by_head(doc, graph):
    """Each unit as (label, covered words), for comparison with spaCy's own subtrees."""
    return sorted(
        (label, tuple(w for w, inside in zip(graph.words, row) if inside))
        for label, row in zip(graph.labels, graph.units)
    )


def test_units_are_the_subtrees_of_heads_without_punctuation():
    (doc,) = parse_tokens(["The old cat , tired , sat on the red mat .".split()])
    graph = DependencyGraphBuilder().build(doc)
    assert graph.words == "the old cat tired sat on the red mat".split()
    expected = []
    for token in doc:
        words = tuple(t.text.lower() for t in token.subtree if not t.is_punct)
        if any(True for _ in token.children) and len(words) > 1:
            expected.append((token.dep_, words))
    assert units_by_head(doc, graph) == sorted(expected)


def test_the_root_token_is_a_unit_covering_the_sentence():
    (doc,) = parse_tokens(["Dogs bark loudly .".split()])
    graph = DependencyGraphBuilder().build(doc)
    assert ("ROOT", ("dogs", "bark", "loudly")) in units_by_head(doc, graph)


def test_one_word_sentences_have_no_units():
    (doc,) = parse_tokens([["Hello", "!"]])
    graph = DependencyGraphBuilder().build(doc)
    assert graph.words == ["hello"] and graph.units.shape == (0, 1)


def test_the_builder_is_registered_under_the_name_the_signature_gives():
    assert GRAPH_BUILDERS["dependency"] is DependencyGraphBuilder
