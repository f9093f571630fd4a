"""USIM's subtree matrix equals the ancestor walk it replaces, and stays cheap on deep trees."""

import random
import time

import numpy as np

from scoring.usim.graph import subtree_matrix


def ancestor_walk(heads: list[int]) -> np.ndarray:
    n = len(heads)
    m = np.zeros((n, n), dtype=bool)
    for t in range(n):
        a = t
        while True:
            m[a, t] = True
            if heads[a] == a:
                break
            a = heads[a]
    return m


def random_forest(rng: random.Random, n: int) -> list[int]:
    """Heads of a random forest over n tokens, in a shuffled order (heads may follow)."""
    parent = [i if i == 0 or rng.random() < 0.1 else rng.randrange(i) for i in range(n)]
    order = list(range(n))
    rng.shuffle(order)
    heads = [0] * n
    for i in range(n):
        heads[order[i]] = order[parent[i]]
    return heads


def test_equals_the_ancestor_walk():
    rng = random.Random(0)
    for _ in range(500):
        heads = random_forest(rng, rng.randint(1, 40))
        assert (subtree_matrix(heads) == ancestor_walk(heads)).all(), heads


def test_a_1000_token_chain_is_fast():
    chain = [0] + list(range(999))
    started = time.perf_counter()
    m = subtree_matrix(chain)
    assert time.perf_counter() - started < 1
    assert m.sum() == 1000 * 1001 // 2
