"""Both ways of getting token ids equal bert-score's own ``sent_encode`` for every sentence:
the word-memo over transformers' tokenizer, and the worker's own WordPiece (no transformers)."""

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, ScoringOptions
from tests.conftest import CLEME_DATA, SUBSET_OUTPUTS, SUBSET_REFS

TRICKY = [
    "Héllo Wörld , naïve café !",
    "中文 和 English mixed",
    "a[SEP]b [CLS] [MASK] [UNK] [PAD] [cls] [Sep] x[MASK]y",
    "tab\there and nbsp\u00a0here \u2028 and \u3000 ideographic space",
    "control\x00char \ufffd replacement \u200b zero width \x85 \x1c",
    "e\u0301 combining accent ; ﬁ ligature ½ ² Ⅻ",
    "ΟΔΟΣ ΣΊΣΥΦΟΣ İstanbul Straße ǅ",
    "don't won't ca n't (parenthesis) \"quotes\" ... $5 #tag ^_^ `x` ¿qué? «ja» „so“",
    "Съешь же ещё этих мягких французских булок . Ґанок , їжак !",
    "Příliš žluťoučký kůň úpěl ďábelské ódy . Þetta er íslenska .",
    "x" * 101 + " " + "y" * 100,
    "  leading and trailing spaces  ",
    "double  space",
    "word " * 600,  # longer than the model: truncated as bert-score truncates
]

ENCODERS = ["transformers", "wordpiece"]


@functools.cache
def tokenizer():
    from scoring.similarity.bertscore import load_scorer

    options = ScoringOptions(sim=True)
    return load_scorer(options.bertscore_model, options.bertscore_layers)._tokenizer


@functools.cache
def encoder(kind: str):
    if kind == "transformers":
        from scoring.similarity.token_ids import TokenIds

        return TokenIds(tokenizer())
    from scoring.similarity.wordpiece import WordPiece, WordPieceSpec

    spec = WordPieceSpec.of(tokenizer())
    assert spec is not None, "the bundled model's tokenizer is one WordPiece reproduces"
    return WordPiece(spec)


def bert_score_ids(sentence: str) -> list[int]:
    from bert_score.utils import sent_encode

    return sent_encode(tokenizer(), sentence)


def test_the_bundled_model_takes_the_word_path():
    assert encoder("transformers").by_words


@pytest.mark.parametrize("kind", ENCODERS)
@pytest.mark.parametrize("sentence", TRICKY)
def test_tricky_text_encodes_as_bert_score_does(kind, sentence):
    assert encoder(kind)(sentence) == bert_score_ids(sentence)


@pytest.mark.parametrize("kind", ENCODERS)
def test_every_conll14_source_and_seeda_line_encodes_as_bert_score_does(kind):
    dataset = Dataset.from_files(m2=CLEME_DATA / "conll14.errant")
    sentences = [" ".join(s) for s in dataset.sources]
    for path in [*SUBSET_REFS, *sorted(SUBSET_OUTPUTS.glob("*.txt"))]:
        sentences += path.read_text(encoding="utf-8").splitlines()
    for sentence in sentences:
        assert encoder(kind)(sentence) == bert_score_ids(sentence), sentence


def test_every_multilingual_demo_line_encodes_as_bert_score_does():
    """The twelve-language demo's essays (Cyrillic, Czech, Icelandic): WordPiece as bert-score."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "leaderboard" / "demo_data" / "multigec"
    lines = [line for path in sorted(root.rglob("*.txt")) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 400
    for line in lines:
        assert encoder("wordpiece")(line) == bert_score_ids(line), line


WORDS = st.text(st.characters(codec="utf-8"), min_size=0, max_size=12) | st.sampled_from(
    ["[CLS]", "[SEP]", "[MASK]", "[cls]", "ΟΔΟΣ", "e\u0301", "\u3000", "İ", "ǅ", "ﬁ", "中", "x" * 101]
)


@pytest.mark.parametrize("kind", ENCODERS)
@settings(max_examples=300, deadline=None)
@given(words=st.lists(WORDS, max_size=8))
def test_any_words_encode_as_bert_score_does(kind, words):
    sentence = " ".join(words)
    assert encoder(kind)(sentence) == bert_score_ids(sentence)


def test_a_spec_survives_its_file(tmp_path):
    from scoring.similarity.wordpiece import SPEC_VERSION, WordPieceSpec

    spec = WordPieceSpec.of(tokenizer())
    spec.save(tmp_path / "spec.json")
    assert WordPieceSpec.load(tmp_path / "spec.json") == spec
    (tmp_path / "old.json").write_text(
        (tmp_path / "spec.json").read_text().replace(f'"version": {SPEC_VERSION}', f'"version": {SPEC_VERSION - 1}')
    )
    assert WordPieceSpec.load(tmp_path / "old.json") is None
    assert WordPieceSpec.load(tmp_path / "missing.json") is None


def test_a_tokenizer_it_does_not_reproduce_gets_no_spec():
    """Only transformers' slow BertTokenizer with plain special tokens is reproduced."""
    from transformers import AddedToken

    from scoring.similarity.wordpiece import WordPieceSpec

    assert WordPieceSpec.of(object()) is None
    tok = tokenizer()
    original = dict(tok._added_tokens_decoder)
    try:
        first = next(iter(original))
        content = original[first].content
        tok._added_tokens_decoder[first] = AddedToken(content, lstrip=True, special=True)
        assert WordPieceSpec.of(tok) is None
    finally:
        tok._added_tokens_decoder.clear()
        tok._added_tokens_decoder.update(original)
    assert WordPieceSpec.of(tok) is not None
