"""A rating campaign's control copies: errors a careful reader cannot miss, scaled to the text.

The ranking's copies (:mod:`.controls`: one word dropped or doubled, one correction
undone) are fine beside their original on one screen, but rated alone on a 1-4 scale one
slip in a 230-token essay moves no careful rater's grade: such raters were then trusted in
0% of campaigns. As Appraise's BAD references replace a phrase, a rating copy carries one
error per :data:`TOKENS_PER_ERROR` tokens of the output (at least one): as many words
dropped as doubled (so the copy is no longer than its original: a rater who favours length
gains nothing), an odd one out made a swap of two neighbouring words. Only words every
reference also has are touched, never punctuation, and a copy is kept only when every
error counts: it is at least that many token edits further from *every* reference than its
original (:func:`.controls.token_distance`); else other words are tried. An output that
already has more than one difference from its nearest reference per 10 tokens gets no copy
(another output or text is tried): a careful rater may have given it the scale's lowest
point already, and a copy cannot be rated lower than that.

The annotator's rating of each copy is then compared with their own rating of its original
(paired: :func:`scoring.human.ratings.paired_control_p`, the one-sided sign test).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence

from scoring import Edit

from .controls import PUNCTUATION, Copy, token_distance

TOKENS_PER_ERROR = 15
MOST_ERRORS = 0.1  # an output further than this per token from every reference gets no copy
TRIES = 6


def error_count(length: int) -> int:
    """Errors a copy of ``length`` tokens carries: one per :data:`TOKENS_PER_ERROR`, at least one."""
    return max(1, math.ceil(length / TOKENS_PER_ERROR))


def corrupted(tokens: Sequence[str], places: list[int], errors: int) -> Copy:
    """``tokens`` with ``errors`` errors at ``places`` (distinct, not neighbours): words
    dropped and doubled alike, the odd one a swap with the next word."""
    drops = doubles = errors // 2
    action: dict[int, str] = {}
    for place in places[:errors]:
        if drops:
            action[place], drops = "drop", drops - 1
        elif doubles:
            action[place], doubles = "double", doubles - 1
        else:
            action[place] = "swap"
    out: list[str] = []
    i = 0
    while i < len(tokens):
        kind = action.get(i)
        if kind == "drop":
            i += 1
            continue
        if kind == "swap" and i + 1 < len(tokens):
            out += [tokens[i + 1], tokens[i]]
            i += 2
            continue
        out += [tokens[i], tokens[i]] if kind == "double" else [tokens[i]]
        i += 1
    return tuple(out)


def safe_places(tokens: Sequence[str], references: Sequence[Sequence[str]]) -> list[int]:
    """Positions of words every reference has too (a proxy for "no one corrects it"), with
    a different word next to them (a swap must change the text), not punctuation."""
    shared = set.intersection(*(set(r) for r in references)) if references else set(tokens)
    return [
        i
        for i, word in enumerate(tokens)
        if word in shared
        and word not in PUNCTUATION
        and i + 1 < len(tokens)
        and tokens[i + 1] != word
        and tokens[i + 1] not in PUNCTUATION
    ]


def spread(places: list[int], errors: int, rng: random.Random) -> list[int]:
    """``errors`` of ``places`` at random, no two neighbours (so errors do not merge)."""
    chosen: list[int] = []
    for place in rng.sample(places, len(places)):
        if all(abs(place - c) > 2 for c in chosen):
            chosen.append(place)
        if len(chosen) == errors:
            break
    return sorted(chosen)


def rating_copy(
    tokens: Sequence[str],
    source: Sequence[str],
    edits: Sequence[Edit],
    references: Sequence[tuple[Sequence[str], Sequence[Edit]]],
    rng: random.Random,
    avoid: Collection[Copy] = (),
) -> Copy | None:
    """A copy of ``tokens`` carrying :func:`error_count` errors, each one more token edit
    from every reference; None when no words allow it (another output is tried).
    ``source`` and ``edits`` are unused: the signature is :func:`.controls.degraded`'s."""
    refs = [tuple(ref) for ref, _ in references] or [tuple(tokens)]
    errors = error_count(len(tokens))
    places = safe_places(tokens, refs)
    base = [token_distance(tokens, ref) for ref in refs]
    if min(base) > MOST_ERRORS * max(1, len(tokens)):
        return None
    for _ in range(TRIES):
        chosen = spread(places, errors, rng)
        if len(chosen) < errors:
            return None
        copy = corrupted(tokens, chosen, errors)
        if copy in avoid or copy == tuple(tokens):
            continue
        if all(token_distance(copy, ref) >= d + errors for ref, d in zip(refs, base)):
            return copy
    return None
