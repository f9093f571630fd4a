"""bert-score's token ids for a BERT WordPiece model, without transformers or torch.

A worker that scores similarity-weighted CLEME2.0 needs two things of the BERTScore
model: a sentence's token ids (``bert_score.utils.sent_encode``) and the forward pass.
The forward pass runs on ONNX Runtime from an exported graph; importing transformers
(and with it torch) only to split words would cost a worker about 450 MB.
This module splits them itself, as transformers' slow ``BertTokenizer`` does, from a
:class:`WordPieceSpec` that the export child (:mod:`scoring.similarity.export`) reads off
the real tokenizer and checks against it before anyone uses it.

The steps, in the order transformers runs them:

1. characters outside special tokens are lower-cased one at a time (``do_lower_case``);
2. the text is cut at special tokens (``[CLS]`` in a sentence is one token);
3. each other piece is cleaned (control characters dropped, any space becomes " "), CJK
   ideographs are spaced out, NFC-normalised and split on whitespace; each word is
   lower-cased, stripped of accents (NFD, combining marks dropped) and split at every
   punctuation character;
4. each of those words becomes its greedy longest-match word pieces, or the unknown
   token when one part of it matches nothing (or it has over ``max_chars`` characters);
5. the ids are cut to the model's length and framed by ``[CLS]`` and ``[SEP]``.

No step looks across a space, so a sentence's ids are its space-separated words' ids in
order, and each word's ids are remembered.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

SPEC_VERSION = 2  # bump when this module reads a spec differently: the export child writes a new one


@dataclass(frozen=True)
class WordPieceSpec:
    """What a ``BertTokenizer`` does, as plain data (JSON beside the exported graph)."""

    vocab: list[str]  # the tokens in id order
    special: dict[str, int]  # special tokens, cut out whole
    do_lower_case: bool  # the tokenizer's: characters outside special tokens, before anything else
    basic_lower: bool  # the basic tokenizer's: each word, with its accents
    strip_accents: bool | None
    chinese_chars: bool
    basic: bool
    split_on_punctuation: bool
    never_split: list[str]
    unknown: str
    max_chars: int
    limit: int  # content ids kept: the model's length less [CLS] and [SEP]
    cls_id: int
    sep_id: int
    pad_id: int
    version: int = field(default=SPEC_VERSION)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> WordPieceSpec | None:
        """The spec at ``path``; None when it is missing, unreadable or of another version."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**data) if data.get("version") == SPEC_VERSION else None
        except (OSError, ValueError, TypeError):
            return None

    @classmethod
    def of(cls, tokenizer) -> WordPieceSpec | None:
        """The spec of a transformers tokenizer, or None when it is not one this module
        reproduces (another class, added tokens that strip spaces or are not special,
        special tokens that overlap one another)."""
        from transformers import AddedToken, BertTokenizer

        if type(tokenizer) is not BertTokenizer or getattr(tokenizer, "split_special_tokens", False):
            return None
        added = list(tokenizer._added_tokens_decoder.values())
        if not all(
            isinstance(t, AddedToken) and t.special and not (t.lstrip or t.rstrip or t.single_word) for t in added
        ):
            return None
        special = {t.content: tokenizer._added_tokens_encoder[t.content] for t in added}
        if set(special) != set(tokenizer.all_special_tokens) or _overlapping(list(special)):
            return None
        basic = tokenizer.basic_tokenizer if tokenizer.do_basic_tokenize else None
        wordpiece = tokenizer.wordpiece_tokenizer
        vocab = [""] * len(tokenizer.vocab)
        for token, index in tokenizer.vocab.items():
            if index >= len(vocab) or vocab[index]:
                return None  # ids with gaps or twice given
            vocab[index] = token
        return cls(
            vocab=vocab,
            special=special,
            do_lower_case=bool(getattr(tokenizer, "do_lower_case", False)),
            basic_lower=bool(basic and basic.do_lower_case),
            strip_accents=None if basic is None else basic.strip_accents,
            chinese_chars=bool(basic and basic.tokenize_chinese_chars),
            basic=basic is not None,
            split_on_punctuation=bool(basic and basic.do_split_on_punc),
            never_split=sorted(basic.never_split) if basic else [],
            unknown=wordpiece.unk_token,
            max_chars=wordpiece.max_input_chars_per_word,
            limit=tokenizer.model_max_length - tokenizer.num_special_tokens_to_add(),
            cls_id=tokenizer.cls_token_id,
            sep_id=tokenizer.sep_token_id,
            pad_id=tokenizer.pad_token_id,
        )


def _overlapping(tokens: list[str]) -> bool:
    """Whether two special tokens could match at overlapping places (one inside another,
    or one's end the other's start): then transformers' trie and a regex may cut differently."""
    for a in tokens:
        for b in tokens:
            if a != b and (a in b or any(a.endswith(b[:k]) for k in range(1, len(b)))):
                return True
    return False


class WordPiece:
    """``sent_encode(BertTokenizer, sentence)``, from a :class:`WordPieceSpec`."""

    def __init__(self, spec: WordPieceSpec):
        self.spec = spec
        self.ids = {token: index for index, token in enumerate(spec.vocab)}
        self.unknown_id = self.ids.get(spec.unknown)  # as transformers falls back: the vocabulary's id
        by_length = sorted(spec.special, key=len, reverse=True)
        self.special_pattern = re.compile("|".join(map(re.escape, by_length))) if by_length else None
        self.never_split = frozenset(spec.never_split)
        self.word = functools.lru_cache(maxsize=1 << 18)(self._word_ids)

    def __call__(self, sentence: str) -> list[int]:
        content = [i for word in sentence.split(" ") for i in self.word(word)]
        return [self.spec.cls_id, *content[: self.spec.limit], self.spec.sep_id]

    def _word_ids(self, word: str) -> tuple[int, ...]:
        ids: list[int] = []
        for piece, is_special in self._cut_at_special(self._lowered(word)):
            if is_special:
                ids.append(self.spec.special[piece])
            else:
                ids.extend(self._token_id(token) for token in self._tokens(piece))
        return tuple(ids)

    def _lowered(self, text: str) -> str:
        """Each character outside a special token lower-cased on its own (as transformers
        does, so a final capital sigma becomes σ, not ς)."""
        if not self.spec.do_lower_case:
            return text
        out, at = [], 0
        for match in self._special_matches(text):
            out.append("".join(c.lower() for c in text[at : match.start()]))
            out.append(match.group())
            at = match.end()
        out.append("".join(c.lower() for c in text[at:]))
        return "".join(out)

    def _special_matches(self, text: str):
        return self.special_pattern.finditer(text) if self.special_pattern else ()

    def _cut_at_special(self, text: str):
        at = 0
        for match in self._special_matches(text):
            if match.start() > at:
                yield text[at : match.start()], False
            yield match.group(), True
            at = match.end()
        if at < len(text):
            yield text[at:], False

    def _token_id(self, token: str) -> int:
        if token in self.spec.special:
            return self.spec.special[token]
        return self.ids.get(token, self.unknown_id)  # type: ignore[return-value]  # every vocabulary has [UNK]

    def _tokens(self, text: str) -> list[str]:
        if not self.spec.basic:
            return self._pieces_of(text)
        tokens = []
        for word in self._basic(text):
            tokens.extend([word] if word in self.never_split else self._pieces_of(word))
        return tokens

    def _basic(self, text: str) -> list[str]:
        """transformers' ``BasicTokenizer.tokenize`` with the special tokens as never-split."""
        never_split = self.never_split | self.spec.special.keys()
        text = "".join(" " if _is_space(c) else c for c in text if not _dropped(c))
        if self.spec.chinese_chars:
            text = "".join(f" {c} " if _is_cjk(ord(c)) else c for c in text)
        words = []
        for word in unicodedata.normalize("NFC", text).split():
            if word not in never_split:
                if self.spec.basic_lower:
                    word = word.lower()
                    if self.spec.strip_accents is not False:
                        word = _without_accents(word)
                elif self.spec.strip_accents:
                    word = _without_accents(word)
            words.extend(self._split_on_punctuation(word, never_split))
        return " ".join(words).split()

    def _split_on_punctuation(self, word: str, never_split) -> list[str]:
        if not self.spec.split_on_punctuation or word in never_split:
            return [word]
        parts: list[str] = []
        glue = False  # whether the next ordinary character continues the last part
        for char in word:
            if _is_punctuation(char):
                parts.append(char)
                glue = False
            elif glue:
                parts[-1] += char
            else:
                parts.append(char)
                glue = True
        return parts

    def _pieces_of(self, text: str) -> list[str]:
        """Greedy longest-match-first word pieces of each whitespace-separated word."""
        pieces: list[str] = []
        for word in text.split():
            if len(word) > self.spec.max_chars:
                pieces.append(self.spec.unknown)
                continue
            found, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start and ((word[start:end] if start == 0 else "##" + word[start:end]) not in self.ids):
                    end -= 1
                if end == start:
                    found = [self.spec.unknown]
                    break
                found.append(word[start:end] if start == 0 else "##" + word[start:end])
                start = end
            pieces.extend(found)
        return pieces


def _dropped(char: str) -> bool:
    """NUL, U+FFFD and control characters (but tab, newline and return) are removed."""
    return char in "\x00\ufffd" or (char not in "\t\n\r" and unicodedata.category(char).startswith("C"))


def _is_space(char: str) -> bool:
    return char in " \t\n\r" or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    """Unicode punctuation, and every ASCII character that is not a letter, digit or space."""
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def _is_cjk(cp: int) -> bool:
    return any(low <= cp <= high for low, high in CJK_RANGES)


def _without_accents(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
