"""Properties of CLEME and CLEME2.0 on random edits (hypothesis).

A hypothesis equal to a reference scores P = R = F = 1 and Hit = 1 against it;
Hit + Error + Under = 1 whenever NE > 0; the CLEME2.0 score stays in [0, 1].
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, Edit, Hypothesis, ScoringOptions
from scoring.cleme import candidates, chunk_statistics
from scoring.cleme.aggregate import heuo
from scoring.dataset import Reference
from scoring.errant.edits import apply_edits
from scoring.metrics.cleme import cleme_scores
from scoring.metrics.cleme2 import Cleme2, unit_weight

WORDS = ["a", "b", "c", "d"]


@st.composite
def sentence_edits(draw, n_tokens):
    """Non-overlapping edits over ``n_tokens`` source tokens."""
    edits, position = [], 0
    while position <= n_tokens and draw(st.booleans()):
        start = draw(st.integers(position, n_tokens))
        end = draw(st.integers(start, min(start + 2, n_tokens)))
        correction = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=0 if end > start else 1, max_size=2)))
        edits.append(Edit(start, end, correction, "R:OTHER"))
        position = end + 1
    return edits


@st.composite
def corpora(draw):
    sources = draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=4))
    refs = [[draw(sentence_edits(len(s))) for s in sources] for _ in range(draw(st.integers(1, 2)))]
    hyp = [draw(sentence_edits(len(s))) for s in sources]
    return sources, refs, hyp


def build(sources, refs, hyp_edits):
    references = [
        Reference(f"ref{k}", [apply_edits(s, e) for s, e in zip(sources, edits)], edits) for k, edits in enumerate(refs)
    ]
    dataset = Dataset(sources, references)
    return dataset, Hypothesis("sys", [apply_edits(s, e) for s, e in zip(sources, hyp_edits)], hyp_edits)


@settings(max_examples=60, deadline=None)
@given(corpora())
def test_a_hypothesis_equal_to_its_only_reference_is_perfect(corpus):
    sources, refs, _ = corpus
    dataset, hyp = build(sources, refs[:1], refs[0])
    if not all(dataset.references[0].tokens):
        return  # an empty reference is dropped only when another one is left; keep the property clean
    stats = chunk_statistics(dataset, hyp)
    for assumption in ("dependent", "independent"):
        for level in ("corpus", "sentence"):
            scores = cleme_scores(stats, 0.5)[assumption][level]
            assert (scores["p"], scores["r"], scores["f"]) == (1.0, 1.0, 1.0)
    scores = Cleme2(ScoringOptions()).score(Cleme2(ScoringOptions()).statistics(dataset, hyp))
    corpus_scores = scores["dependent"]["corpus"]
    assert corpus_scores["hit"] == (1.0 if corpus_scores["tp"] else 0.0)
    assert corpus_scores["error"] == corpus_scores["under"] == corpus_scores["over"] == 0.0


@settings(max_examples=60, deadline=None)
@given(corpora(), st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4))
def test_hit_error_under_add_up_and_the_score_stays_in_range(corpus, raw):
    dataset, hyp = build(*corpus)
    factors = tuple(a / sum(raw) for a in raw)
    stats = chunk_statistics(dataset, hyp)
    for assumption in ("dependent", "independent"):
        for sentence in candidates(stats, assumption, unit_weight):
            for tp, fp_ne, fp_un, fn, _ in sentence:
                hit, error, under, over, score = heuo(tp, fp_ne, fp_un, fn, factors)
                if tp + fp_ne + fn > 0:
                    assert abs(hit + error + under - 1.0) < 1e-9
                assert -1e-12 <= score <= 1.0 + 1e-12
    options = ScoringOptions(cleme2_corpus_factors=factors, cleme2_sentence_factors=factors)
    scores = Cleme2(options).score(stats)
    for assumption in ("dependent", "independent"):
        for level in ("corpus", "sentence"):
            result = scores[assumption][level]
            assert -1e-12 <= result["score"] <= 1.0 + 1e-12
            if level == "corpus" and result["tp"] + result["fp_ne"] + result["fn"] > 0:
                assert abs(result["hit"] + result["error"] + result["under"] - 1.0) < 1e-9
