"""The dataset's n-gram index (scoring/gleu/index.py) gives every sentence's GLEU numerators
exactly as clipping Counters does (the definition, :func:`by_counters`): on the 15 SEEDA subset
systems, and on random corpora with empty sentences, words no reference has, and 0 to 3
references."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.gleu import score as gleu
from scoring.gleu.index import NgramIndex
from tests.conftest import SEEDA_SYSTEMS, SUBSET_OUTPUTS, SUBSET_REFS


def lines(path) -> list[list[str]]:
    return [gleu.split_tokens(line) for line in path.read_text(encoding="utf-8").split("\n")]


def ngrams_by_order(tokens) -> list[Counter]:
    """The n-gram counts of a sentence for n = 1..4."""
    return [Counter(zip(*(tokens[k:] for k in range(n)))) for n in range(1, gleu.ORDER + 1)]


def overlap(a: Counter, b: Counter) -> int:
    """|a ∩ b| of two multisets."""
    return sum((a & b).values())


def by_counters(sources, references, hypotheses) -> list[list[list[int]]]:
    """Per sentence, per reference, the four numerators from Counters, as ``compute_gleu``
    clips them: max(|h ∩ r| - |h ∩ (s \\ r)|, 0), where s \\ r holds the source n-grams whose
    type the reference does not contain."""
    result = []
    for i, (source, hypothesis) in enumerate(zip(sources, hypotheses)):
        source_ngrams, hypothesis_ngrams = ngrams_by_order(source), ngrams_by_order(hypothesis)
        row = []
        for reference in references:
            reference_ngrams = ngrams_by_order(reference[i])
            changed = [
                Counter({g: c for g, c in s.items() if g not in r}) for s, r in zip(source_ngrams, reference_ngrams)
            ]
            row.append(
                [max(overlap(h, r) - overlap(h, d), 0) for h, r, d in zip(hypothesis_ngrams, reference_ngrams, changed)]
            )
        result.append(row)
    return result


def test_the_golden_systems():
    sources = lines(SUBSET_OUTPUTS / "INPUT.txt")
    references = [lines(path)[: len(sources)] for path in SUBSET_REFS]
    index = NgramIndex(sources, references)
    for system in SEEDA_SYSTEMS:
        hypotheses = lines(SUBSET_OUTPUTS / f"{system}.txt")[: len(sources)]
        assert index.numerators(hypotheses).tolist() == by_counters(sources, references, hypotheses), system
    assert index.lengths.tolist() == [[len(r[i]) for r in references] for i in range(len(sources))]


WORDS = ["the", "cat", "sat", "on", "a", "mat"]
sentence = st.lists(st.sampled_from(WORDS), max_size=8)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 5).flatmap(
        lambda n: st.tuples(
            st.lists(sentence, min_size=n, max_size=n),
            st.integers(0, 3).flatmap(
                lambda r: st.lists(st.lists(sentence, min_size=n, max_size=n), min_size=r, max_size=r)
            ),
            st.lists(st.lists(st.sampled_from(WORDS + ["dog", "ran"]), max_size=8), min_size=n, max_size=n),
        )
    )
)
def test_random_corpora(corpus):
    sources, references, hypotheses = corpus
    index = NgramIndex(sources, references)
    assert index.numerators(hypotheses).tolist() == by_counters(sources, references, hypotheses)
