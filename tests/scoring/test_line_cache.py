"""A line is parsed once per dataset: reference lines and earlier systems' lines are
reused, across systems of one run and after the dataset is saved and loaded."""

import pytest

from scoring import Dataset, read_hypothesis
from scoring.hypothesis import hypothesis_from_lines
from scoring.nlp import parse_tokens
from scoring.pipelines import get_pipeline
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS

SOURCE = ["He go to school yesterday .", "She like cats .", "It is fine ."]
REF = ["He went to school yesterday .", "She likes cats .", "It is fine ."]


@pytest.fixture
def tiny():
    return Dataset.from_text(SOURCE, [REF])


@pytest.fixture
def no_parsing(tiny, monkeypatch):
    tiny.source_docs  # noqa: B018  the sources are parsed before: only output lines are watched

    def refuse(token_lists, *args, **kwargs):
        token_lists = list(token_lists)
        if token_lists:
            raise AssertionError(f"parsed again: {token_lists}")
        return []

    monkeypatch.setattr(get_pipeline("en", "full"), "parse", refuse)


def test_a_line_equal_to_the_reference_takes_its_parse_and_edits(tiny, no_parsing):
    hypothesis = hypothesis_from_lines(tiny, REF, "copy")
    assert hypothesis.edits == tiny.references[0].edits
    assert all(doc is not None for doc in hypothesis.parses(tiny)[:2])


def test_a_second_system_parses_only_its_new_lines(tiny, monkeypatch):
    first = hypothesis_from_lines(tiny, ["He goes to school yesterday .", *REF[1:]], "first")
    parsed = []

    def counting(lines):
        parsed.extend(lines)
        return parse_tokens(lines)

    monkeypatch.setattr(get_pipeline("en", "full"), "parse", counting)
    second = hypothesis_from_lines(
        tiny, ["He goes to school yesterday .", "She liked cats .", "It is fine ."], "second"
    )
    assert parsed == [("She", "liked", "cats", ".")]
    assert second.edits[0] == first.edits[0]


def test_saved_dataset_keeps_the_reference_parses(tiny, no_parsing):
    loaded = Dataset.from_bytes(tiny.to_bytes())
    hypothesis = hypothesis_from_lines(loaded, REF, "copy")
    assert hypothesis.edits == tiny.references[0].edits
    assert [t.dep_ for t in hypothesis.parses(loaded)[0]] == [
        t.dep_ for t in hypothesis_from_lines(tiny, REF, "copy").parses(tiny)[0]
    ]


def test_cached_edits_equal_fresh_ones(seeda_subset, seeda_hypotheses):
    """The session's systems shared one cache; a fresh dataset annotates one alone."""
    fresh = Dataset.from_files(source=SUBSET_OUTPUTS / "INPUT.txt", refs=SUBSET_REFS)
    for name in ("GPT-3.5", "REF-F"):
        assert read_hypothesis(fresh, SUBSET_OUTPUTS / f"{name}.txt", name).edits == seeda_hypotheses[name].edits


def test_one_serialiser_gives_docbins_own_bytes_and_the_same_parses(monkeypatch):
    """The line cache's bytes come from one packer built once (no registry scan a line),
    equal DocBin's own, and decode to the same parse."""
    import srsly.msgpack

    from scoring.line_cache import ParseSerialiser, doc_to_bytes, docs_from_bytes

    pipeline = get_pipeline("en", "full")
    docs = pipeline.parse([tuple(line.split()) for line in [*SOURCE, *REF, "A  line with ' odd \" tokens ."]])
    serialiser = ParseSerialiser()
    first = [serialiser.to_bytes(doc) for doc in docs]
    assert serialiser.same_as_docbin is True
    built = []
    monkeypatch.setattr(srsly.msgpack.Packer, "__init__", lambda *a, **k: built.append(1) or None)
    again = [serialiser.to_bytes(doc) for doc in docs]
    assert not built  # no packer made per line
    monkeypatch.undo()
    assert first == again == [serialiser.docbin_bytes(doc) for doc in docs]
    for doc, data in zip(docs, first):
        (back,) = docs_from_bytes(data, pipeline.nlp.vocab)
        assert [(t.text, t.tag_, t.dep_, t.head.i, t.lemma_, t.whitespace_) for t in back] == [
            (t.text, t.tag_, t.dep_, t.head.i, t.lemma_, t.whitespace_) for t in doc
        ]
    assert doc_to_bytes(docs[0]) == first[0]


def test_a_spacy_that_lays_its_bytes_out_otherwise_gets_docbins_own(monkeypatch):
    from scoring.line_cache import ParseSerialiser

    docs = get_pipeline("en", "full").parse([tuple(SOURCE[0].split())])
    serialiser = ParseSerialiser()
    monkeypatch.setattr(serialiser, "_pack", lambda doc: b"another layout")
    assert serialiser.to_bytes(docs[0]) == serialiser.docbin_bytes(docs[0])
    assert serialiser.same_as_docbin is False
    assert serialiser.to_bytes(docs[0]) == serialiser.docbin_bytes(docs[0])
