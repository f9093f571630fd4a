"""Create a campaign from an organizer's settings, checked all at once.

Every problem is named (a malformed invitee, a submission not of the phase, a number out
of range), so the form and the API answer them together. Annotators are invited
(:mod:`.invitations`): an unknown address is no problem, so the answer never tells who
has an account. The screens are sampled by a
worker job (:mod:`.prepare`): computing each output's ERRANT edits parses sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q

from ...models import Campaign, Phase, SharedTask, Submission
from ...refusals import Refusal
from ..insights.judgments import sign_test
from ..registry import find_mode
from .builtin import checked_builtin
from .corpus import checked_corpus
from .invitations import check_invitees, new_invitations, send_invitations
from .jobs import run_campaign_job
from .ratings import check_rating_settings
from .sampling import shares

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
MAX_GUIDELINES = 20_000
MAX_SYSTEMS = 100


class CampaignError(Refusal):
    """Settings that cannot make a campaign; ``problems`` names each."""


@dataclass
class CampaignSettings:
    name: str
    annotators: list[str]
    screens_per_annotator: int
    phase: str = ""
    corpus: str = ""  # on a phase of several corpora: the corpus shown (.corpus)
    outputs_per_screen: int = 5
    redundancy: int = 2
    repeats: int = 0
    controls: float = 0.0
    threshold: float = 0.05
    mode: str = Campaign.Mode.RANKING
    systems: list[int] | None = None
    seed: int = 0
    builtin: list | None = None  # mode rating: "ORIGINAL", "REFERENCE" (.builtin)
    scales: list | None = None  # mode rating: [{"name", "min", "max"}]; None: one 0-100 slider
    guidelines: str = ""
    practice: int = 0
    problems: list[str] = field(default_factory=list)


def board_systems(phase: Phase) -> list[Submission]:
    """The phase's board: its pool members that are not withdrawn."""
    return list(Submission.objects.filter(Q(phase=phase, hidden=False) & Submission.on_board()).order_by("pk"))


def check_numbers(settings: CampaignSettings, problems: list[str]) -> None:
    ranges = {
        "screens_per_annotator": (1, 10_000),
        "outputs_per_screen": (1, 10),  # 1 only in mode rating (.ratings)
        "redundancy": (1, 20),
        "repeats": (0, 10_000),
        "seed": (0, 2**31 - 1),
        "practice": (0, 10),
    }
    ranges_float: dict[str, float] = {"controls": 0.5, "threshold": 1.0}
    for name, (low, high) in ranges.items():
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(f"{name}: an integer from {low} to {high} (got {value!r})")
    for name, most in ranges_float.items():
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= most:
            problems.append(f"{name}: a number from 0 to {most} (got {value!r})")
    if not isinstance(settings.guidelines, str) or len(settings.guidelines) > MAX_GUIDELINES:
        problems.append(f"guidelines: Markdown text of at most {MAX_GUIDELINES} characters")
    if find_mode(settings.mode) is None:
        problems.append(f"mode: one of {', '.join(Campaign.Mode.values)} (got {settings.mode!r})")


def rates(settings: CampaignSettings) -> bool:
    """Whether the chosen mode rates (an unknown mode, refused by :func:`check_numbers`, does not)."""
    mode = find_mode(settings.mode)
    return mode is not None and mode.rates


def fewest_controls(threshold: float) -> int | None:
    """The fewest control screens, all judged carefully, whose sign test reaches ``threshold``."""
    return next((n for n in range(1, 64) if sign_test(n, 0) <= threshold), None)


def check_controls(settings: CampaignSettings, problems: list[str]) -> None:
    """Refuse control screens too few to ever trust anyone: the sign test over n of them
    gives at best p = 0.5^n, and an annotator above the threshold has every judgment left
    out, so such a campaign would silently rank nothing."""
    screens, repeats, share, threshold = (
        settings.screens_per_annotator,
        settings.repeats,
        settings.controls,
        settings.threshold,
    )
    if rates(settings):
        return  # .ratings checks the rank-sum test's controls
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (screens, repeats, share, threshold)):
        return  # check_numbers names these
    if not (screens >= 1 and repeats >= 0 and 0 <= share <= 0.5 and 0 <= threshold <= 1):
        return
    controls = shares(screens, share, repeats)[1]
    if controls == 0 or sign_test(controls, 0) <= threshold:
        return
    needed = fewest_controls(threshold)
    remedy = (
        f"give each annotator at least {needed} control screens"
        if needed
        else "a threshold of 0 trusts no annotator with controls"
    )
    problems.append(
        f"controls: {controls} control screens per annotator give at best p = {sign_test(controls, 0):.3g}, "
        "above the threshold "
        f"{threshold}, so no annotator could be trusted and every judgment would be left out; {remedy}, raise "
        "the threshold, or set controls to 0"
    )


def chosen_systems(phase: Phase, ids: list[int] | None, problems: list[str]) -> list[Submission]:
    if ids is None:
        systems = board_systems(phase)
        if len(systems) < 2:
            problems.append(
                f"systems: the board of the {phase.title} phase has {len(systems)} systems; a campaign ranks "
                "two or more"
            )
        return systems
    if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        problems.append("systems: a list of submission ids")
        return []
    ids = list(dict.fromkeys(ids))
    found = {s.pk: s for s in Submission.objects.filter(pk__in=ids, phase=phase, status=Submission.Status.SCORED)}
    unknown = [i for i in ids if i not in found]
    if unknown:
        problems.append(f"systems: not scored submissions of the {phase.title} phase: {', '.join(map(str, unknown))}")
    if len(ids) < 2 or len(ids) > MAX_SYSTEMS:
        problems.append(f"systems: from 2 to {MAX_SYSTEMS} submissions (got {len(ids)})")
    return [found[i] for i in ids if i in found]


def create_campaign(task: SharedTask, user, settings: CampaignSettings, *, site: str = "") -> Campaign:
    """The campaign, preparing, with an invitation per annotator named (mailed, with links
    on ``site``, once the transaction commits); its screens are sampled then too.
    Raises :class:`CampaignError` naming every problem."""
    problems = list(settings.problems)
    if not isinstance(settings.name, str) or not NAME.match(settings.name):
        problems.append("name: lower-case letters, digits and hyphens, at most 60, starting with a letter or digit")
    elif Campaign.objects.filter(task=task, name=settings.name).exists():
        problems.append(f"name: task {task.slug} already has a campaign {settings.name}")
    phase = Phase.objects.filter(task=task, kind=settings.phase).first() if settings.phase else task.current_phase()
    if phase is None:
        problems.append(f"phase: task {task.slug} has no phase {settings.phase}".strip())
    corpus = checked_corpus(phase, settings.corpus, problems) if phase is not None else ""
    check_numbers(settings, problems)
    check_controls(settings, problems)
    numbers = {
        k: getattr(settings, k)
        for k in ("outputs_per_screen", "screens_per_annotator", "controls", "repeats", "threshold")
    }
    scales = check_rating_settings(rates(settings), settings.scales, numbers, problems)
    builtin = checked_builtin(rates(settings), settings.builtin, problems)
    invitees = check_invitees(settings.annotators, problems)
    systems = chosen_systems(phase, settings.systems, problems) if phase is not None else []
    if problems or phase is None:  # a missing phase is among the problems
        raise CampaignError(problems)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            task=task,
            phase=phase,
            name=settings.name,
            mode=settings.mode,
            corpus=corpus,
            builtin=builtin,
            scales=scales,
            screens_per_annotator=settings.screens_per_annotator,
            outputs_per_screen=settings.outputs_per_screen,
            redundancy=settings.redundancy,
            repeats=settings.repeats,
            controls=settings.controls,
            threshold=settings.threshold,
            seed=settings.seed,
            guidelines=settings.guidelines,
            practice=settings.practice,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        campaign.systems.set(systems)
        invitations = new_invitations(campaign, invitees)
        transaction.on_commit(lambda: send_invitations(invitations, site))
        transaction.on_commit(lambda: run_campaign_job.enqueue(campaign.pk))
    return campaign
