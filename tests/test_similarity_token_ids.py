"""The word-memo token ids equal bert-score's own ``sent_encode`` for every sentence."""
import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, ScoringOptions

from .conftest import CLEME_DATA, SUBSET_OUTPUTS, SUBSET_REFS

TRICKY = [
    "Héllo Wörld , naïve café !",
    "中文 和 English mixed",
    "a[SEP]b [CLS] [MASK] [UNK] [PAD]",
    "tab\there and nbsp\u00a0here",
    "control\x00char \ufffd replacement \u200b zero width",
    "e\u0301 combining accent ; ﬁ ligature",
    "don't won't ca n't (parenthesis) \"quotes\" ...",
    "  leading and trailing spaces  ",
    "double  space",
    "word " * 600,  # longer than the model: truncated as bert-score truncates
]


@functools.cache
def token_ids():
    from scoring.similarity import load_scorer
    from scoring.token_ids import TokenIds

    options = ScoringOptions(sim=True)
    return TokenIds(load_scorer(options.bertscore_model, options.bertscore_layers)._tokenizer)


def bert_score_ids(sentence: str) -> list[int]:
    from bert_score.utils import sent_encode

    return sent_encode(token_ids().tokenizer, sentence)


def test_the_bundled_model_takes_the_word_path():
    assert token_ids().by_words


@pytest.mark.parametrize("sentence", TRICKY)
def test_tricky_text_encodes_as_bert_score_does(sentence):
    assert token_ids()(sentence) == bert_score_ids(sentence)


def test_every_conll14_source_and_seeda_line_encodes_as_bert_score_does():
    dataset = Dataset.from_files(m2=CLEME_DATA / "conll14.errant")
    sentences = [" ".join(s) for s in dataset.sources]
    for path in [*SUBSET_REFS, *sorted(SUBSET_OUTPUTS.glob("*.txt"))]:
        sentences += path.read_text(encoding="utf-8").splitlines()
    for sentence in sentences:
        assert token_ids()(sentence) == bert_score_ids(sentence), sentence


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=12), max_size=8))
def test_any_words_encode_as_bert_score_does(words):
    sentence = " ".join(words)
    assert token_ids()(sentence) == bert_score_ids(sentence)
