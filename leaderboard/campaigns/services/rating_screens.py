"""Prepare a rating campaign in the worker: the ranking's plan, with its controls made as
Appraise's direct assessment makes them.

The screens and queues are :func:`.sampling.plan_campaign`'s (``outputs_per_screen`` may
be 1: a whole essay per screen, as MultiGEC-2025). A control is never shown beside its
original, where the difference would give it away: the control screen keeps its outputs
(a regular screen of that annotator's, counted as any other), and a second screen shows
the same outputs with one replaced by its degraded copy (:func:`.controls.place_controls`,
with :func:`.rating_controls.rating_copy`: one error per 15 tokens, each counted against
every reference), placed in the same annotator's queue away from the first. The annotator's
rating of the copy is then compared with their rating of its original
(:mod:`leaderboard.campaigns.insights.ratings`). Each control thus adds one screen to the
annotator's queue.
"""

from __future__ import annotations

import random

from django.db import transaction

import scoring

from ...models import Assignment, Campaign, Screen
from ...services.data.datasets import load_dataset
from .controls import place_controls, references_of
from .corpus import corpus_phase
from .prepare import assignments, build_rows, campaign_plan, edits_of, queue_slots, shown_edit
from .rating_controls import rating_copy
from .sampling import Group, Plan, PlanError, output_key


def refill(plan: Plan, lines: dict[int, list[Group]], outputs: int, rng: random.Random) -> None:
    """Give each control screen its full number of outputs: the plan kept one place free
    for a degraded copy beside them, which a rating campaign shows on its own screen."""
    for screen in plan.screens:
        if not screen.control:
            continue
        missing = [g for g in lines[screen.line] if g not in screen.groups]
        room = max(0, min(outputs, len(lines[screen.line])) - len(screen.groups))
        screen.groups += rng.sample(missing, min(room, len(missing)))


def copy_screen(
    campaign: Campaign, original: Screen, index: int, made: tuple[str, ...], edits: dict, rng: random.Random
) -> Screen:
    """The screen of the degraded copy: ``original``'s outputs, its ``index``-th degraded,
    in a new order; the copy names the key and systems of what it degrades."""
    source = original.source.split(" ")
    outputs = [dict(o) for o in original.outputs]
    of = outputs[index]
    outputs[index] = {
        "text": " ".join(made),
        "systems": [],
        "edits": [shown_edit(e, source) for e in edits[(original.line, made)]],
        "control_of": of["key"],
        "original_systems": list(of["systems"]),
    }
    rng.shuffle(outputs)
    for i, output in enumerate(outputs):
        output["key"] = output_key(i)
    return Screen(
        campaign=campaign,
        line=original.line,
        source=original.source,
        before=original.before,
        after=original.after,
        outputs=outputs,
        is_control=True,
    )


def place(queue: list[tuple[int, bool]], same_line: set[int], copy: int, rng: random.Random) -> None:
    """Insert ``copy`` into ``queue`` at a random place next to no screen of ``same_line``
    (its original, and the original's repeat)."""
    near = {i for i, (screen, _) in enumerate(queue) if screen in same_line}
    far = [p for p in range(len(queue) + 1) if p not in near and p - 1 not in near]
    queue.insert(rng.choice(far) if far else len(queue), (copy, False))


def prepare_ratings(campaign: Campaign) -> str:
    """Sample and store the screens and queues; the campaign ends ready or failed."""
    dataset = load_dataset(corpus_phase(campaign).gold_id)
    rng = random.Random(campaign.seed)
    annotators, slots = queue_slots(campaign)
    try:
        plan, lines = campaign_plan(campaign, dataset, annotators)
    except (PlanError, scoring.InputError) as error:
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.FAILED, message=str(error))
        return Campaign.Status.FAILED
    refill(plan, lines, campaign.outputs_per_screen, rng)
    copies = place_controls(
        plan, lines, dataset.sources, references_of(dataset), lambda pairs: edits_of(dataset, pairs), rng, rating_copy
    )
    edits = edits_of(dataset, [(s.line, g[0]) for s in plan.screens for g in s.groups])
    edits.update(edits_of(dataset, [(plan.screens[i].line, made) for i, (_, made) in copies.items()]))
    rows = build_rows(campaign, dataset, plan, {}, edits, rng)
    owners = {screen: a for a, queue in plan.queues.items() for screen, _ in queue if plan.screens[screen].control}
    for index, (original, made) in sorted(copies.items()):
        rows.append(copy_screen(campaign, rows[index], original, made, edits, rng))
        same_line = {i for i, screen in enumerate(plan.screens) if screen.line == plan.screens[index].line}
        place(plan.queues[owners[index]], same_line, len(rows) - 1, rng)
    with transaction.atomic():
        screens = Screen.objects.bulk_create(rows)
        # As the ranking's: an invitation accepted while the plan was made hands its queue over here.
        accepted = dict(campaign.invitations.select_for_update().values_list("pk", "user_id"))
        slots = {slot: (inv, accepted.get(inv, user) if inv else user) for slot, (inv, user) in slots.items()}
        Assignment.objects.bulk_create(assignments(campaign, plan, screens, slots), batch_size=2000)
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.READY, message="")
    return Campaign.Status.READY
