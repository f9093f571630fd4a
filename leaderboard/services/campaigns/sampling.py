"""Which sentences a campaign shows, with which outputs, to whom: a seeded plan.

As Grundkiewicz et al. (EMNLP 2015) favoured diverse screens, only sentences whose
outputs differ are shown; systems with the same output share one shown output (as in
Appraise's XML, ``system="A B"``). Each screen takes up to ``outputs`` distinct outputs
of its sentence, at random, in a random order. Every annotator gets
``screens_per_annotator`` screens: a share of control screens (their own), ``repeats``
of their screens a second time, and regular screens, each of which ``redundancy``
annotators judge. The same inputs and seed give the same plan, so a campaign is
reproducible. Pure Python: no Django, no parsing.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

Group = tuple[tuple[str, ...], tuple[int, ...]]  # (output tokens, the systems that output them)


@dataclass
class PlannedScreen:
    line: int
    groups: list[Group]  # shown order
    control: bool = False


@dataclass
class Plan:
    screens: list[PlannedScreen] = field(default_factory=list)
    queues: dict[int, list[tuple[int, bool]]] = field(default_factory=dict)  # annotator -> [(screen index, repeat)]


class PlanError(ValueError):
    """The campaign cannot be planned (no sentence whose outputs differ, nothing asked)."""


def differing_lines(outputs: dict[int, list[list[str]]]) -> dict[int, list[Group]]:
    """``{line: groups}`` for every line where the systems' outputs are not all the same;
    ``outputs`` is ``{system id: tokens per line}``. Groups keep the systems' order."""
    systems = sorted(outputs)
    n_lines = min((len(lines) for lines in outputs.values()), default=0)
    found: dict[int, list[Group]] = {}
    for line in range(n_lines):
        by_text: dict[tuple[str, ...], list[int]] = {}
        for system in systems:
            by_text.setdefault(tuple(outputs[system][line]), []).append(system)
        if len(by_text) >= 2:
            found[line] = [(tokens, tuple(ids)) for tokens, ids in by_text.items()]
    return found


def shares(screens_per_annotator: int, control_share: float, repeats: int) -> tuple[int, int, int]:
    """(regular, control, repeated) screens of each annotator; at least one regular."""
    controls = min(round(control_share * screens_per_annotator), screens_per_annotator - 1)
    repeated = max(0, min(repeats, screens_per_annotator - controls - 1))
    return screens_per_annotator - controls - repeated, controls, repeated


def plan_campaign(
    lines: dict[int, list[Group]],
    annotators: list[int],
    *,
    screens_per_annotator: int,
    outputs: int = 5,
    redundancy: int = 2,
    repeats: int = 0,
    control_share: float = 0.0,
    seed: int = 0,
) -> Plan:
    """The screens and each annotator's queue. A control screen keeps one place free for
    the degraded output the caller adds (:mod:`.controls`)."""
    if not lines:
        raise PlanError("no sentence where the chosen systems' outputs differ: nothing to rank")
    if not annotators:
        raise PlanError("a campaign needs at least one annotator")
    rng = random.Random(seed)
    order = sorted(lines)
    rng.shuffle(order)
    cursor = itertools.count()

    def next_line() -> int:  # the shuffled lines in turn, again from the first when all were used
        return order[next(cursor) % len(order)]

    def pick(line: int, room: int) -> list[Group]:
        groups = list(lines[line])
        chosen = rng.sample(groups, min(room, len(groups)))
        rng.shuffle(chosen)
        return chosen

    regular, controls, repeated = shares(screens_per_annotator, control_share, repeats)
    plan = Plan(queues={a: [] for a in annotators})
    per_screen = max(1, min(redundancy, len(annotators)))
    quota = dict.fromkeys(annotators, regular)
    for j in range(math.ceil(len(annotators) * regular / per_screen)):
        ready = sorted(
            (a for a in annotators if quota[a] > 0),
            key=lambda a: (-quota[a], (annotators.index(a) - j) % len(annotators)),
        )
        if not ready:
            break
        line = next_line()
        plan.screens.append(PlannedScreen(line, pick(line, outputs)))
        for annotator in ready[:per_screen]:
            quota[annotator] -= 1
            plan.queues[annotator].append((len(plan.screens) - 1, False))
    for annotator in annotators:
        for _ in range(controls):
            line = next_line()
            plan.screens.append(PlannedScreen(line, pick(line, outputs - 1), control=True))
            plan.queues[annotator].append((len(plan.screens) - 1, False))
        _shuffle_with_repeats(plan, plan.queues[annotator], repeated, rng)
    return plan


def _shuffle_with_repeats(plan: Plan, queue: list[tuple[int, bool]], repeated: int, rng: random.Random) -> None:
    """Shuffle one annotator's queue, then show ``repeated`` of its regular screens again later on."""
    rng.shuffle(queue)
    originals = [i for i, (screen, _) in enumerate(queue) if not plan.screens[screen].control]
    for first in sorted(rng.sample(originals, min(repeated, len(originals))), reverse=True):
        position = rng.randint(first + 1, len(queue))
        queue.insert(position, (queue[first][0], True))


def output_key(index: int) -> str:
    """The shown name of the ``index``-th output on a screen: A, B, C, ..."""
    return chr(ord("A") + index)
