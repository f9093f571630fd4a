"""Bit vectors packed into 64-bit words, for popcounts over a whole pool at once.

``numpy.packbits`` order, padded with zero bits to a whole number of words: a popcount
then runs over an eighth as many elements as over bytes, and the packed bytes the
platform stores (``PoolMember.correct``) convert without unpacking.
"""

from __future__ import annotations

import numpy as np


def n_words(n_bits: int) -> int:
    return (n_bits + 63) // 64


def from_bytes(packed: np.ndarray, n_bits: int) -> np.ndarray:
    """``(..., ceil(n_bits / 8))`` uint8 from ``numpy.packbits`` as ``(..., words)`` uint64.

    Bits past ``n_bits`` are cleared, so stray padding never counts."""
    packed = np.asarray(packed, dtype=np.uint8)
    out = np.zeros((*packed.shape[:-1], n_words(n_bits) * 8), dtype=np.uint8)
    out[..., : packed.shape[-1]] = packed
    if n_bits % 8:
        out[..., n_bits // 8] &= np.uint8((0xFF << (8 - n_bits % 8)) & 0xFF)
    out[..., (n_bits + 7) // 8 :] = 0
    return out.view(np.uint64)


def pack(bits: np.ndarray) -> np.ndarray:
    """Bool ``(..., n_bits)`` as ``(..., words)`` uint64."""
    bits = np.asarray(bits, dtype=bool)
    return from_bytes(np.packbits(bits, axis=-1), bits.shape[-1])


def unpack(words: np.ndarray, n_bits: int) -> np.ndarray:
    """``(..., words)`` uint64 back to bool ``(..., n_bits)``."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=-1, count=n_bits).view(bool)


def popcount(words: np.ndarray) -> np.ndarray:
    """Set bits per row (summed over the last axis), as int64."""
    return np.bitwise_count(words).sum(axis=-1, dtype=np.int64)


def column_sums(words: np.ndarray, n_bits: int, block: int = 256) -> np.ndarray:
    """For each bit position, how many of the rows of ``(rows, words)`` have it set.

    Unpacks ``block`` rows at a time, so memory stays at ``block * n_bits`` bytes, and
    adds them up in 16 bits (a block never counts past 65,535), three times quicker."""
    total = np.zeros(n_bits, dtype=np.int64)
    for start in range(0, len(words), block):
        total += unpack(words[start : start + block], n_bits).view(np.uint8).sum(axis=0, dtype=np.uint16)
    return total


def weighted_sums(words: np.ndarray, n: np.ndarray, block: int = 8) -> np.ndarray:
    """``sum of n_i over the set bits`` of every row of ``(..., words)``, exactly.

    n (non-negative integers) is split into bit planes: the sum is
    ``sum_b 2^b * popcount(row & plane_b)``, integer popcounts, no unpacking of the rows;
    ``block`` rows against every plane per step."""
    n = np.asarray(n, dtype=np.int64)
    if len(n) and n.min() < 0:
        raise ValueError("weighted_sums needs non-negative n")
    shape, n_words = words.shape[:-1], words.shape[-1]
    flat = words.reshape(int(np.prod(shape)), n_words)  # not -1: a size-0 row (no chunks) is allowed
    bits = int(n.max()).bit_length() if len(n) else 0
    planes = pack(((n[None, :] >> np.arange(bits, dtype=np.int64)[:, None]) & 1).astype(bool))
    scale = np.left_shift(1, np.arange(bits, dtype=np.int64))
    narrow = np.uint16 if n_words * 64 <= 0xFFFF else np.int64  # a row's popcount fits: sum in 16 bits
    out = np.zeros(len(flat), dtype=np.int64)
    anded = np.empty((min(block, len(flat)), bits, n_words), dtype=np.uint64)
    counts = np.empty(anded.shape, dtype=np.uint8)
    for start in range(0, len(flat), block):
        rows = flat[start : start + block]
        k = len(rows)
        np.bitwise_and(rows[:, None, :], planes[None], out=anded[:k])
        np.bitwise_count(anded[:k], out=counts[:k])
        out[start : start + k] = counts[:k].sum(axis=-1, dtype=narrow).astype(np.int64) @ scale
    return out.reshape(shape)
