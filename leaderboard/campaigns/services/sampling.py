"""Which sentences a campaign shows, with which outputs, to whom: a seeded plan.

As Grundkiewicz et al. (EMNLP 2015) favoured diverse screens, only sentences whose
outputs differ are shown; systems with the same output share one shown output (as in
Appraise's XML, ``system="A B"``). Each screen takes up to ``outputs`` distinct outputs
of its sentence, at random, in a random order. Every annotator gets
``screens_per_annotator`` screens: a share of control screens (their own), ``repeats``
of their screens a second time, and regular screens, each of which ``redundancy``
annotators judge. A repeat tests consistency only if it is not remembered: its first
showing lies in the first half of the annotator's queue, the repeat in the second half,
as a screen of its own with the outputs in another order (so other letters). The same
inputs and seed give the same plan, so a campaign is reproducible. Pure Python: no Django, no parsing.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

KAPPA_MIN_SHARED = 50  # scoring.human.MIN_SHARED (not imported: it loads TrueSkill; a test holds them equal)
Group = tuple[tuple[str, ...], tuple[int, ...]]  # (output tokens, the systems that output them)


@dataclass
class PlannedScreen:
    line: int
    groups: list[Group]  # shown order
    control: bool = False
    repeat_of: int | None = None  # the screen (index) this one shows again, reshuffled


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
        rng.shuffle(plan.queues[annotator])
        add_repeats(plan, plan.queues[annotator], repeated, rng)
    return plan


def reshuffled(groups: list[Group], rng: random.Random) -> list[Group]:
    """``groups`` in another order (the same when there is only one)."""
    again = list(groups)
    for _ in range(10):
        rng.shuffle(again)
        if again != groups or len(set(again)) < 2:
            break
    return again if again != groups else groups[1:] + groups[:1]


def add_repeats(plan: Plan, queue: list[tuple[int, bool]], repeated: int, rng: random.Random) -> None:
    """Show ``repeated`` regular screens of the first half of ``queue`` again in its second
    half (of the queue with the repeats), each as a new screen with its outputs reshuffled."""
    for count in range(min(repeated, len(queue)), -1, -1):  # as many as the first half holds
        half = (len(queue) + count + 1) // 2
        originals = [i for i, (screen, _) in enumerate(queue[:half]) if not plan.screens[screen].control]
        if len(originals) >= count:
            break
    for first in sorted(rng.sample(originals, count)):
        shown = plan.screens[queue[first][0]]
        plan.screens.append(PlannedScreen(shown.line, reshuffled(shown.groups, rng), repeat_of=queue[first][0]))
        queue.insert(rng.randint(half, len(queue)), (len(plan.screens) - 1, True))


def repeats_for_kappa(outputs: int, min_shared: int = KAPPA_MIN_SHARED) -> int:
    """Repeats an annotator needs for an intra-annotator kappa: each repeated screen of
    ``outputs`` outputs gives outputs * (outputs - 1) / 2 compared label pairs, and a kappa
    counts only an annotator with ``min_shared`` of them. Fewer when
    a sentence has fewer distinct outputs: this is the least."""
    pairs = outputs * (outputs - 1) // 2
    return -(-min_shared // pairs) if pairs else 0


def repeats_help(min_shared: int = KAPPA_MIN_SHARED) -> str:
    """The form's words on repeats: how many reach a kappa, per outputs on a screen."""
    needs = ", ".join(f"{repeats_for_kappa(k, min_shared)} with {k}" for k in (5, 4, 3, 2))
    return (
        "screens each annotator sees again, in the second half of their screens with the outputs reshuffled "
        f"(intra-annotator agreement). A kappa needs {min_shared} compared pairs per annotator: at least "
        f"{needs} outputs per screen"
    )


def output_key(index: int) -> str:
    """The shown name of the ``index``-th output on a screen: A, B, C, ..."""
    return chr(ord("A") + index)
