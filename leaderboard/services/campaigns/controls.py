"""Control outputs: a worse copy of an output on the same screen.

One of its corrections undone (a source error restored), a word dropped, or a word
doubled. A careful annotator ranks it below its original; the sign test over an
annotator's control screens is :mod:`leaderboard.insights.campaign_judgments`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring import Edit, apply_edits

PUNCTUATION = set(".,;:!?\"'()-")


def degraded(
    tokens: Sequence[str], source: Sequence[str], edits: Sequence[Edit], rng: random.Random, avoid: set[tuple[str, ...]]
) -> tuple[str, ...] | None:
    """A worse copy of ``tokens`` not in ``avoid`` (the screen's other outputs); None if
    every way tried gives one already there."""
    ways = []
    real = [e for e in edits if e.type not in ("noop", "UNK")]
    for undone in rng.sample(real, len(real)):
        ways.append(tuple(apply_edits(list(source), [e for e in real if e is not undone])))
    words = [i for i, t in enumerate(tokens) if t not in PUNCTUATION] or list(range(len(tokens)))
    for i in rng.sample(words, len(words)):
        if len(tokens) > 1:
            ways.append(tuple(tokens[:i]) + tuple(tokens[i + 1 :]))
        ways.append(tuple(tokens[: i + 1]) + tuple(tokens[i:]))
    rng.shuffle(ways)
    return next((way for way in ways if way != tuple(tokens) and way not in avoid), None)
