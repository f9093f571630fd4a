"""Properties of the language pieces on random Ukrainian-like sentences (tokens pipeline):
a perfect system scores 1, the source scores no TP, every type is in the documented
vocabulary, ``cse`` counts equal ``cs`` counts (both kinds of type depend on span and
correction only), and GLEU ``multigec`` equals the gleu tool."""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Dataset, ScoringOptions, hypothesis_from_lines, score_systems
from tests.scoring.test_multigec_gleu_parity import printed
from tests.support.multigec_support import gleu_tool

WORDS = [
    "я",
    "Я",
    "книжка",
    "книжку",
    "книжки",
    "читати",
    "читаю",
    "в",
    "до",
    "магазин",
    "магазину",
    "Київ",
    "києві",
    ",",
    ".",
    "!",
    "і",
    "не",
]
TYPE = re.compile(r"^(UNK|[MRU]:(PUNCT|ORTH|WO|SPELL|MORPH|OTHER|[A-Z]+))$")

sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)
edit_ops = st.lists(
    st.tuples(st.sampled_from(["keep", "drop", "swap", "insert", "replace"]), st.sampled_from(WORDS)),
    min_size=12,
    max_size=12,
)


def corrupt(tokens: list[str], ops: list[tuple[str, str]]) -> list[str]:
    out: list[str] = []
    for token, (op, word) in zip(tokens, ops):
        if op == "keep":
            out.append(token)
        elif op == "insert":
            out += [word, token]
        elif op == "replace":
            out.append(word)
        elif op == "swap" and out:
            out.insert(len(out) - 1, token)
    return out or [ops[0][1]]


corpus = st.lists(st.tuples(sentence, edit_ops, edit_ops), min_size=1, max_size=6)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def lines_of(examples):
    sources = [" ".join(s) for s, _, _ in examples]
    references = [" ".join(corrupt(s, a)) for s, a, _ in examples]
    systems = [" ".join(corrupt(s, b)) for s, _, b in examples]
    return sources, references, systems


def scored(sources, references, systems, metrics=("errant", "gleu")):
    dataset = Dataset.from_text(sources, [references], lang="uk", pipeline="tokens")
    hypotheses = [
        hypothesis_from_lines(dataset, lines, name)
        for name, lines in (("sys", systems), ("perfect", references), ("source", sources))
    ]
    return dataset, score_systems(dataset, hypotheses, list(metrics), ScoringOptions(gleu_variant="multigec")).systems


@SETTINGS
@given(corpus)
def test_perfect_output_scores_one_and_the_source_no_tp(examples):
    sources, references, systems = lines_of(examples)
    _, result = scored(sources, references, systems)
    assert result["perfect"]["errant"]["cs"]["f"] == 1.0 and result["perfect"]["gleu"]["score"] == 1.0
    assert result["source"]["errant"]["cs"]["tp"] == 0
    assert 0.0 <= result["sys"]["gleu"]["score"] <= 1.0


@SETTINGS
@given(corpus)
def test_types_are_documented_and_cse_counts_equal_cs_counts(examples):
    dataset, result = scored(*lines_of(examples), metrics=("errant",))
    assert all(TYPE.match(e.type) for edits in dataset.references[0].edits for e in edits)
    ours = result["sys"]["errant"]
    assert [ours["cse"][k] for k in ("tp", "fp", "fn")] == [ours["cs"][k] for k in ("tp", "fp", "fn")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus)
def test_multigec_gleu_equals_the_tool(examples):
    sources, references, systems = lines_of(examples)
    _, result = scored(sources, references, systems, metrics=("gleu",))
    assert printed(result["sys"]["gleu"]["score"]) == gleu_tool(sources, [references], systems)
