"""GLEU's n-gram overlaps for a whole system at once, against an index built once per dataset.

Per sentence and reference, GLEU clips a hypothesis n-gram's count against the reference
(``|h ∩ r|``) and against the source n-grams the reference changed (``|h ∩ (s \\ r)|``).
Only n-grams of the source or a reference can count. So the dataset's tokens and n-grams
are numbered once: an n-gram's number is its rank among the dataset's n-grams of its
order, found from its (n-1)-gram prefix's number and its last token's (integer codes, no
tuples to hash). Per (sentence, n-gram) the index keeps both clip counts of every
reference. A system is then numbered the same way and numpy clips and sums per sentence
and order over the whole corpus: integer counts, identical to clipping Counters sentence
by sentence (the definition, kept as the oracle of ``tests/scoring/test_gleu_index.py``).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from .score import ORDER

UNKNOWN = -1


class Vocabulary(dict):
    """token -> number; a token of no source or reference is UNKNOWN."""

    def __missing__(self, token: str) -> int:
        return UNKNOWN


def lookup(table: np.ndarray, codes: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The ranks of ``codes`` in the sorted ``table``; UNKNOWN where absent or not valid."""
    if not len(table):
        return np.full(len(codes), UNKNOWN, dtype=np.int64)
    at = np.minimum(np.searchsorted(table, codes), len(table) - 1)
    return np.where(valid & (table[at] == codes), at, UNKNOWN)


class NgramIndex:
    """The source and reference n-grams of a dataset: per (sentence, n-gram) its order and,
    per reference, its count in the reference and in ``s \\ r``; and the reference lengths."""

    def __init__(self, sources: list[list[str]], references: list[list[list[str]]]):
        self.vocabulary = Vocabulary()
        for token in chain.from_iterable(chain(sources, *references)):
            self.vocabulary.setdefault(token, len(self.vocabulary))
        self.base = max(len(self.vocabulary), 1)
        self.n_references = len(references)
        self.lengths = np.array(
            [[len(ref[i]) for ref in references] for i in range(len(sources))], dtype=np.int64
        ).reshape(len(sources), self.n_references)
        corpora = [self.flatten(sources)] + [self.flatten(ref) for ref in references]
        self.tables = [np.arange(len(self.vocabulary), dtype=np.int64)]  # per order, the sorted codes
        numbered = [[ids] for ids, _ in corpora]  # per corpus, per order, the numbers of its windows
        for n in range(2, ORDER + 1):
            codes = [
                self.window_codes(ids, sentence, numbers[-1], n) for (ids, sentence), numbers in zip(corpora, numbered)
            ]
            self.tables.append(np.unique(np.concatenate([code[valid] for code, valid in codes])))
            for numbers, (code, valid) in zip(numbered, codes):
                numbers.append(lookup(self.tables[-1], code, valid))
        self.offsets = np.cumsum([0] + [len(t) for t in self.tables])  # number + offset: unique over orders
        self.total = max(int(self.offsets[-1]), 1)
        keys = [self.sentence_keys(sentence, numbers) for (_, sentence), numbers in zip(corpora, numbered)]
        self.keys = np.unique(np.concatenate(keys))
        self.orders = np.searchsorted(self.offsets, self.keys % self.total, side="right") - 1
        source = self.counts(keys[0])
        self.in_reference = np.array([self.counts(k) for k in keys[1:]], dtype=np.int64).T.reshape(
            len(self.keys), self.n_references
        )
        self.in_changed = np.where(self.in_reference == 0, source[:, None], 0)

    def flatten(self, sentences: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
        """Every token's number (UNKNOWN if new) and its sentence, all sentences end to end."""
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        ids = np.fromiter(
            map(self.vocabulary.__getitem__, chain.from_iterable(sentences)), dtype=np.int64, count=int(lengths.sum())
        )
        return ids, np.repeat(np.arange(len(sentences), dtype=np.int64), lengths)

    def window_codes(
        self, ids: np.ndarray, sentence: np.ndarray, prefixes: np.ndarray, n: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per window of n tokens: its code (prefix number * base + last token), and whether
        it lies in one sentence with a known prefix and last token."""
        size = max(len(ids) - n + 1, 0)
        prefix, last = prefixes[:size], ids[n - 1 : n - 1 + size]
        valid = (prefix != UNKNOWN) & (last != UNKNOWN) & (sentence[:size] == sentence[n - 1 : n - 1 + size])
        return prefix * self.base + last, valid

    def numbers(self, ids: np.ndarray, sentence: np.ndarray) -> list[np.ndarray]:
        """Per order, the number of each window of a new text (UNKNOWN: no dataset n-gram)."""
        numbers = [ids]
        for n in range(2, ORDER + 1):
            numbers.append(lookup(self.tables[n - 1], *self.window_codes(ids, sentence, numbers[-1], n)))
        return numbers

    def sentence_keys(self, sentence: np.ndarray, numbers: list[np.ndarray]) -> np.ndarray:
        """sentence * (all n-grams) + the n-gram's number over all orders, per known window."""
        keys = []
        for n, number in enumerate(numbers):
            known = number != UNKNOWN
            keys.append(sentence[: len(number)][known] * self.total + self.offsets[n] + number[known])
        return np.concatenate(keys)

    def counts(self, keys: np.ndarray) -> np.ndarray:
        """How often each of the index's keys occurs in ``keys`` (all of them are in it)."""
        found, counts = np.unique(keys, return_counts=True)
        result = np.zeros(len(self.keys), dtype=np.int64)
        result[np.searchsorted(self.keys, found)] = counts
        return result

    def numerators(self, hypotheses: list[list[str]]) -> np.ndarray:
        """Per sentence and reference, ``max(|h ∩ r| - |h ∩ (s \\ r)|, 0)`` per order:
        shape (sentences, references, 4)."""
        n_sentences = len(hypotheses)
        ids, sentence = self.flatten(hypotheses)
        keys, counts = np.unique(self.sentence_keys(sentence, self.numbers(ids, sentence)), return_counts=True)
        at = lookup(self.keys, keys, np.ones(len(keys), dtype=bool))
        found = at != UNKNOWN
        at, counts, keys = at[found], counts[found], keys[found]
        cell = (keys // self.total) * ORDER + self.orders[at]  # sentence * 4 + order
        result = np.zeros((n_sentences, self.n_references, ORDER), dtype=np.int64)
        for k in range(self.n_references):
            kept = np.minimum(counts, self.in_reference[at, k]) - np.minimum(counts, self.in_changed[at, k])
            result[:, k, :] = np.bincount(cell, weights=kept, minlength=n_sentences * ORDER).reshape(n_sentences, ORDER)
        return np.maximum(result, 0)
