"""The token ids bert-score gives a sentence (``bert_score.utils.sent_encode``), faster.

bert-score encodes every sentence from scratch with the slow (pure Python) tokenizer,
which costs about as much as a tenth of the forward pass. CLEME2.0's X' sentences
are the source with one chunk changed, so nearly all of their words were seen before.
A WordPiece BERT tokenizer splits on whitespace before anything else (its cleaning,
lower-casing, accent stripping and punctuation splitting all work inside a word), so a
sentence's ids are its words' ids in order, and each word's ids can be remembered.
Other tokenizers (BPE with a prefix space, SentencePiece) see across words and are
asked for the whole sentence, exactly as bert-score asks.
"""

from __future__ import annotations

import functools


class TokenIds:
    """``sent_encode(tokenizer, sentence)`` with word-level memory for BERT tokenizers."""

    def __init__(self, tokenizer):
        from bert_score.utils import sent_encode
        from transformers import BertTokenizer

        self.tokenizer = tokenizer
        self.whole = functools.partial(sent_encode, tokenizer)
        self.by_words = type(tokenizer) is BertTokenizer
        self.limit = tokenizer.model_max_length - tokenizer.num_special_tokens_to_add()
        self.word = functools.lru_cache(maxsize=1 << 18)(self._word_ids)

    def _word_ids(self, word: str) -> tuple[int, ...]:
        return tuple(self.tokenizer.convert_tokens_to_ids(self.tokenizer.tokenize(word)))

    def __call__(self, sentence: str) -> list[int]:
        if not self.by_words:
            return self.whole(sentence)
        content = [i for word in sentence.split(" ") for i in self.word(word)]
        return self.tokenizer.build_inputs_with_special_tokens(content[: self.limit])
