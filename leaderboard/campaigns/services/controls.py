"""Control outputs: a copy of an output that is surely worse, for quality control.

A careful annotator ranks (or rates) the copy below its original; the sign test over an
annotator's control screens is :mod:`leaderboard.campaigns.insights.judgments`. A copy
that is not surely worse flags careful annotators ("possibilities of get" undone from
"possibilities to get" is a correction), so a copy is made only in two ways, and kept
only when it is further (token edit distance) from *every* reference than its original:

1. undo an edit of the output that a reference makes too (its error restored);
2. drop or double a word (not punctuation) that neither the output nor any reference
   changes, nor inserts next to.

:func:`degraded` makes one copy (pure Python; the rating mode's controls reuse it, with
:func:`references_of` for a dataset's references of a line); :func:`place_controls` gives
each control screen of a plan its copy, trying the screen's other outputs, then other
sentences, when no copy of one is surely worse.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence

from scoring import Dataset, Edit, apply_edits

from .sampling import Group, Plan

PUNCTUATION = set(".,;:!?\"'()-")
MAX_WAYS = 12  # copies checked per output: bounds the edit distances computed
MAX_LINES = 20  # other sentences tried for one control screen
SKIPPED = ("noop", "UNK")

GoldOf = Callable[[int], list[tuple[Sequence[str], Sequence[Edit]]]]  # line -> [(reference tokens, edits)]
EditsOf = Callable[[list[tuple[int, tuple[str, ...]]]], dict]  # [(line, tokens)] -> {(line, tokens): [Edit]}


def references_of(dataset: Dataset) -> GoldOf:
    """A line's references as ``(tokens, edits)``, the annotators with no annotation there left out."""

    def gold(line: int) -> list[tuple[Sequence[str], Sequence[Edit]]]:
        return [(ref.tokens[line], edits) for ref in dataset.references if (edits := ref.edits[line]) is not None]

    return gold


def token_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance over tokens (insert, delete, substitute: 1 each). The common
    start and end are cut first (the distance is the same): a copy and a reference that
    differ in a few places cost their differing middle, not their whole length squared."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    a, b = a[start : len(a) - end], b[start : len(b) - end]
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def surely_worse(copy: Sequence[str], original: Sequence[str], references: Sequence[Sequence[str]]) -> bool:
    """Whether ``copy`` is further than ``original`` from every reference."""
    return all(token_distance(copy, ref) > token_distance(original, ref) for ref in references)


Copy = tuple[str, ...]


def undone(
    tokens: Sequence[str], source: Sequence[str], edits: Sequence[Edit], gold: Sequence[Sequence[Edit]]
) -> list[Copy]:
    """Copies with one of the output's edits that a reference also makes undone."""
    real = [e for e in edits if e.type not in SKIPPED]
    if tuple(apply_edits(list(source), real)) != tuple(tokens):
        return []  # the edits do not make the output: nothing can be undone safely
    made = {(e.start, e.end, e.correction) for edits_of_ref in gold for e in edits_of_ref if e.type not in SKIPPED}
    return [
        tuple(apply_edits(list(source), [e for e in real if e is not edit]))
        for edit in real
        if (edit.start, edit.end, edit.correction) in made
    ]


def untouched(source: Sequence[str], edit_lists: Sequence[Sequence[Edit]]) -> list[int]:
    """Source positions of words no edit list changes or inserts beside."""
    touched: set[int] = set()
    for edits in edit_lists:
        for e in edits:
            if e.type not in SKIPPED:  # an insertion at i touches the words either side of it
                touched.update(range(e.start - 1, e.start + 1) if e.start == e.end else range(e.start, e.end))
    return [i for i, token in enumerate(source) if i not in touched and token not in PUNCTUATION]


def output_position(source_index: int, edits: Sequence[Edit]) -> int:
    """Where an unchanged source word stands in the output that ``edits`` make."""
    shift = sum(
        len(e.correction.split()) - (e.end - e.start) for e in edits if e.type not in SKIPPED and e.end <= source_index
    )
    return source_index + shift


def dropped_or_doubled(
    tokens: Sequence[str], source: Sequence[str], edits: Sequence[Edit], gold: Sequence[Sequence[Edit]]
) -> list[Copy]:
    """Copies with one word no one changes dropped or doubled."""
    real = [e for e in edits if e.type not in SKIPPED]
    if tuple(apply_edits(list(source), real)) != tuple(tokens):
        return []
    ways: list[Copy] = []
    for i in untouched(source, [real, *gold]):
        at = output_position(i, real)
        if len(tokens) > 1:
            ways.append(tuple(tokens[:at]) + tuple(tokens[at + 1 :]))
        ways.append(tuple(tokens[: at + 1]) + tuple(tokens[at:]))
    return ways


def degraded(
    tokens: Sequence[str],
    source: Sequence[str],
    edits: Sequence[Edit],
    references: Sequence[tuple[Sequence[str], Sequence[Edit]]],
    rng: random.Random,
    avoid: Collection[Copy] = (),
) -> Copy | None:
    """A copy of ``tokens`` (ERRANT ``edits`` against ``source``) surely worse than it by
    every reference ``(tokens, edits)`` of the sentence, not in ``avoid`` (the screen's
    other outputs); None when no way gives one (then pick another output)."""
    gold = [list(ref_edits) for _, ref_edits in references]
    ways = undone(tokens, source, edits, gold) + dropped_or_doubled(tokens, source, edits, gold)
    rng.shuffle(ways)
    original = tuple(tokens)
    checked = 0
    for way in ways:
        if way == original or way in avoid:
            continue
        if surely_worse(way, original, [ref for ref, _ in references]):
            return way
        checked += 1
        if checked >= MAX_WAYS:
            break
    return None


def control_for(
    groups: list[Group],
    line: int,
    source: Sequence[str],
    gold: GoldOf,
    edits: dict,
    rng: random.Random,
    degrade: Callable = degraded,
) -> tuple[int, Copy] | None:
    """(index of the original among ``groups``, copy) for the first output that has a
    surely worse copy, the outputs tried in random order; None when none has."""
    avoid = {g[0] for g in groups}
    for original in rng.sample(range(len(groups)), len(groups)):
        tokens = groups[original][0]
        made = degrade(tokens, source, edits[(line, tokens)], gold(line), rng, avoid)
        if made is not None:
            return original, made
    return None


def place_controls(
    plan: Plan,
    lines: dict[int, list[Group]],
    sources: Sequence[Sequence[str]],
    gold: GoldOf,
    edits_of: EditsOf,
    rng: random.Random,
    degrade: Callable = degraded,
) -> dict[int, tuple[int, tuple[str, ...]]]:
    """``{screen index: (index of the original on the screen, copy)}`` for the plan's
    control screens. A screen none of whose outputs has a surely worse copy takes another
    sentence (its outputs drawn again, at most :data:`MAX_LINES` tried); ``edits`` of the
    screens' outputs come from ``edits_of``, asked once for all and once per sentence tried;
    ``degrade`` makes a copy (:func:`degraded`; a rating campaign's, :mod:`.rating_controls`)."""
    indices = [i for i, screen in enumerate(plan.screens) if screen.control]
    edits = edits_of([(plan.screens[i].line, g[0]) for i in indices for g in plan.screens[i].groups])
    others = sorted(lines)
    room = max((len(plan.screens[i].groups) for i in indices), default=1)
    controls = {}
    for index in indices:
        screen = plan.screens[index]
        found = control_for(screen.groups, screen.line, sources[screen.line], gold, edits, rng, degrade)
        for line in rng.sample(others, min(MAX_LINES, len(others))) if found is None else []:
            groups = rng.sample(lines[line], min(room, len(lines[line])))
            edits.update(edits_of([(line, g[0]) for g in groups if (line, g[0]) not in edits]))
            found = control_for(groups, line, sources[line], gold, edits, rng, degrade)
            if found is not None:
                screen.line, screen.groups = line, groups
                break
        if found is not None:
            controls[index] = found
    return controls
