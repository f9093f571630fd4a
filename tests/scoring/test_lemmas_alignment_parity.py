"""With the ``lemmas`` pipeline the docs carry lemmas and UPOS; the library's compiled
alignment and bounded-time merger then still give stock ERRANT 3.0.2's edits
(``Annotator.align`` + ``merge``) on those same docs: UA-GEC train paragraphs through the
Ukrainian pipeline (simplemma lemmas, pymorphy3 tags) and the Czech one (word-list tags
that read Ukrainian words as X), and the demo's Czech and Icelandic corpora through their
own taggers (Czech word lists, BÍN)."""

from pathlib import Path

import pytest

from scoring.errant.alignment import FastAlignment
from scoring.errant.merger import rule_edits
from scoring.pipelines import get_pipeline
from tests.support import needs
from tests.support.multigec_support import SYSTEMS, stock_annotator, ua_gec_lines

needs.package("ua_gec", "the UA-GEC corpus, CC BY 4.0; requirements-dev.txt pins it")


@pytest.mark.parametrize("lang", ["uk", "cs"])
def test_edits_equal_stock_alignment_and_merging(lang):
    sources, references, systems = ua_gec_lines("train", 120, "paragraph")
    pipeline = get_pipeline(lang, "lemmas")
    annotator = stock_annotator(lang)
    source_docs = pipeline.parse([line.split() for line in sources])
    compared = 0
    for corrections in [references[0], *(systems[name] for name in SYSTEMS)]:
        for source, orig, cor in zip(sources, source_docs, pipeline.parse([line.split() for line in corrections])):
            if source.split() == [t.text for t in cor]:
                continue
            stock = annotator.merge(annotator.align(orig, cor, False), "rules")
            ours = rule_edits(FastAlignment(orig, cor))
            assert [(e.o_start, e.o_end, e.c_str) for e in ours] == [(e.o_start, e.o_end, e.c_str) for e in stock]
            compared += 1
    assert (
        compared > 200
        and any(t.lemma_ for t in source_docs[0])
        and (lang != "uk" or any(t.pos_ for t in source_docs[0]))
    )


DEMO = Path(__file__).resolve().parents[2] / "leaderboard" / "demo_data" / "multigec"


@pytest.mark.parametrize(("lang", "corpus"), [("cs", "cs-geccc"), ("is", "is-iceec")])
def test_demo_corpora_edits_equal_stock_alignment_and_merging_with_their_tags(lang, corpus):
    read = lambda name: (DEMO / corpus / name).read_text(encoding="utf-8").splitlines()  # noqa: E731
    sources, corrections = read("source.txt"), read("ref1.txt")
    pipeline = get_pipeline(lang, "lemmas")
    annotator = stock_annotator(lang)
    compared = 0
    for orig, cor in zip(
        pipeline.parse([line.split() for line in sources]), pipeline.parse([line.split() for line in corrections])
    ):
        stock = annotator.merge(annotator.align(orig, cor, False), "rules")
        ours = rule_edits(FastAlignment(orig, cor))
        assert [(e.o_start, e.o_end, e.c_str) for e in ours] == [(e.o_start, e.o_end, e.c_str) for e in stock]
        compared += 1
    assert compared == len(sources) and any(t.pos_ not in ("", "X") for t in orig)
