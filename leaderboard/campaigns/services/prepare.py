"""Prepare a campaign in the worker: sample its screens, add controls, find each output's
edits, and give every annotator their queue, all in one transaction.

Edits are ERRANT's, against the source, found with the phase's prepared dataset and its
shared parse cache; only the sampled sentences are annotated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

import scoring
from scoring.errant.annotation import annotate

from ...insights.per_sentence import output_lines
from ...models import Assignment, Campaign, Screen
from ...services.data.datasets import load_dataset
from .builtin import builtin_outputs
from .controls import place_controls, references_of
from .corpus import corpus_outputs, corpus_phase
from .sampling import Plan, PlanError, differing_lines, output_key, plan_campaign


class LinesOf:
    """The dataset's line cache seen through a list of (dataset line) positions, so that
    :func:`scoring.errant.annotation.annotate` can annotate a handful of sentences."""

    def __init__(self, cache, lines: Sequence[int]):
        self.cache, self.lines = cache, list(lines)

    @property
    def pipeline(self):
        return self.cache.pipeline

    def parse(self, token_lists):
        return self.cache.parse(token_lists)

    def edits(self, i, tokens):
        return self.cache.edits(self.lines[i], tokens)

    def add_edits(self, i, tokens, edits):
        self.cache.add_edits(self.lines[i], tokens, edits)


def edits_of(
    dataset: scoring.Dataset, pairs: list[tuple[int, tuple[str, ...]]]
) -> dict[tuple[int, tuple[str, ...]], list[scoring.Edit]]:
    """ERRANT's edits of each (line, output tokens)."""
    pairs = list(dict.fromkeys(pairs))
    if not pairs:
        return {}
    lines = [line for line, _ in pairs]
    found = annotate(
        [dataset.sources[line] for line in lines],
        [list(t) for _, t in pairs],
        lambda indices: dataset.source_parses([lines[i] for i in indices]),
        LinesOf(dataset.lines, lines),
    )
    return {pair: [e for e in edits if e.type not in ("noop", "UNK")] for pair, edits in zip(pairs, found)}


def shown_edit(edit: scoring.Edit, source: Sequence[str]) -> dict:
    return {
        "start": edit.start,
        "end": edit.end,
        "source": " ".join(source[edit.start : edit.end]),
        "correction": edit.correction,
        "type": edit.type,
    }


def system_outputs(campaign: Campaign, dataset: scoring.Dataset) -> dict[int, list[list[str]]]:
    """``{submission id: tokens per line}`` of the campaign's systems (on a phase of several
    corpora, their outputs for the campaign's corpus: :mod:`.corpus`)."""
    outputs = {}
    shown = corpus_outputs(campaign, list(campaign.systems.all().defer("content")))
    for pk, submission in shown.items():
        lines = output_lines(submission)[: len(dataset)]
        outputs[pk] = dataset.split(lines)
    outputs.update(builtin_outputs(campaign, dataset))
    return outputs


def build_rows(
    campaign: Campaign,
    dataset: scoring.Dataset,
    plan: Plan,
    controls: dict,
    edits: dict,
    rng: random.Random,
    key: Callable[[int], str] = output_key,
) -> list[Screen]:
    """The screens' rows; ``key`` names a screen's outputs (the mode's letters)."""
    screens = []
    for index, planned in enumerate(plan.screens):
        source = dataset.sources[planned.line]
        shown: list[dict[str, Any]] = [
            {"tokens": tokens, "systems": list(ids), "control_of": None} for tokens, ids in planned.groups
        ]
        if index in controls:
            original, made = controls[index]
            shown.insert(rng.randint(0, len(shown)), {"tokens": made, "systems": [], "control_of": shown[original]})
        for i, output in enumerate(shown):
            output["key"] = key(i)
        outputs = [
            {
                "key": o["key"],
                "text": " ".join(o["tokens"]),
                "systems": o["systems"],
                "edits": [shown_edit(e, source) for e in edits[(planned.line, tuple(o["tokens"]))]],
                "control_of": o["control_of"]["key"] if o["control_of"] else None,
            }
            for o in shown
        ]
        screens.append(
            Screen(
                campaign=campaign,
                line=planned.line,
                source=" ".join(source),
                outputs=outputs,
                is_control=index in controls,
                before=" ".join(dataset.sources[planned.line - 1]) if planned.line > 0 else "",
                after=" ".join(dataset.sources[planned.line + 1]) if planned.line + 1 < len(dataset) else "",
            )
        )
    return screens


def queue_slots(campaign: Campaign) -> tuple[list[int], dict[int, tuple[int | None, int | None]]]:
    """Whom the queues are planned for: one slot per invitation not declined (its
    ``(invitation, annotator)``, the annotator once accepted), or, for a campaign made
    without invitations (the admin's, a bench's), one per annotator."""
    invitations = campaign.invitations.exclude(status__in=["declined", "dropped"]).order_by("pk")
    slots: dict[int, tuple[int | None, int | None]] = {
        pk: (pk, user) for pk, user in invitations.values_list("pk", "user_id")
    }
    if not slots:
        slots = {pk: (None, pk) for pk in campaign.annotators.order_by("pk").values_list("pk", flat=True)}
    return list(slots), slots


def with_practice(queue: list[tuple[int, bool]], plan: Plan, practice: int) -> list[tuple[int, bool, bool]]:
    """``(screen, repeat, practice)``: ``practice`` regular screens first, then the queue.
    Practice screens are others' (not in this queue, so the annotator does not meet the
    same sentence again for real) where there are enough, and count for nothing."""
    own = {screen for screen, _ in queue}
    regular = [k for k, s in enumerate(plan.screens) if not s.control]
    others = [k for k in regular if k not in own]
    chosen = (others + [k for k in regular if k in own])[:practice]
    return [(screen, False, True) for screen in chosen] + [(s, r, False) for s, r in queue]


def assignments(campaign: Campaign, plan: Plan, screens: list[Screen], slots: dict) -> list[Assignment]:
    rows = []
    for slot, queue in plan.queues.items():
        invitation, annotator = slots[slot]
        for position, (screen, repeat, practice) in enumerate(with_practice(queue, plan, campaign.practice)):
            rows.append(
                Assignment(
                    campaign=campaign,
                    annotator_id=annotator,
                    invitation_id=invitation,
                    screen=screens[screen],
                    position=position,
                    repeat=repeat,
                    practice=practice,
                )
            )
    return rows


def campaign_plan(campaign: Campaign, dataset: scoring.Dataset, annotators: list[int]) -> tuple[Plan, dict]:
    """The campaign's screens and queues (:func:`.sampling.plan_campaign`) from its settings,
    and the lines they are of (each line's groups of differing outputs); both modes plan
    alike (a rating campaign then places its controls its own way)."""
    lines = differing_lines(system_outputs(campaign, dataset))
    plan = plan_campaign(
        lines,
        annotators,
        screens_per_annotator=campaign.screens_per_annotator,
        outputs=campaign.outputs_per_screen,
        redundancy=campaign.redundancy,
        repeats=campaign.repeats,
        control_share=campaign.controls,
        seed=campaign.seed,
    )
    return plan, lines


def prepare_campaign(campaign: Campaign, key: Callable[[int], str] = output_key) -> str:
    """Sample and store the screens and queues; the campaign ends ready or failed. ``key``
    names a screen's outputs (the mode's letters: :meth:`.modes.ranking.Ranking.key`)."""
    dataset = load_dataset(corpus_phase(campaign).gold_id)
    annotators, slots = queue_slots(campaign)
    rng = random.Random(campaign.seed)
    try:
        plan, lines = campaign_plan(campaign, dataset, annotators)
    except (PlanError, scoring.InputError) as error:
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.FAILED, message=str(error))
        return Campaign.Status.FAILED
    controls = place_controls(
        plan, lines, dataset.sources, references_of(dataset), lambda pairs: edits_of(dataset, pairs), rng
    )
    edits = edits_of(dataset, [(s.line, g[0]) for s in plan.screens for g in s.groups])
    edits.update(edits_of(dataset, [(plan.screens[i].line, made) for i, (_, made) in controls.items()]))
    with transaction.atomic():
        screens = Screen.objects.bulk_create(build_rows(campaign, dataset, plan, controls, edits, rng, key))
        # Locked, then read again: an invitation accepted while the plan was made hands its
        # queue to its annotator here, and one accepted from now on waits for these rows.
        accepted = dict(campaign.invitations.select_for_update().values_list("pk", "user_id"))
        slots = {slot: (inv, accepted.get(inv, user) if inv else user) for slot, (inv, user) in slots.items()}
        Assignment.objects.bulk_create(assignments(campaign, plan, screens, slots), batch_size=2000)
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.READY, message="")
    return Campaign.Status.READY
