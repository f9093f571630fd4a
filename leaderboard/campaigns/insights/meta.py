"""The meta-evaluation of a judged phase, from stored statistics, kept until results change.

Systems are the phase's scored submissions whose system name the judgments know (the
latest one per name); they are also GoToScorer's pool here, as in
``python -m scoring meta``. The table (``scoring.meta.meta_evaluate``, 1,000 samples,
seed 12345) is stored on the :class:`~leaderboard.models.Judgments` row with a key of
the results it used, so a new result, a rescore, new judgments, a campaign ranked again,
published or withdrawn recompute it, from statistics only, and nothing else does. This
module only reads it; the worker keeps it (:mod:`leaderboard.campaigns.services.meta_tables`).

Every ranked human evaluation campaign of the phase adds its Expected Wins and TrueSkill
as schemes ``NAME:EW`` and ``NAME:TS``, for an audience
(:func:`leaderboard.access.meta_evaluation_audience`): the organizers count every
campaign, everyone else only the published ones (an unpublished campaign stays on its own
page, and the meta-evaluation opens to everyone once the task ends). The two are computed
and cached apart (``table``, ``organizer_table``), so no unpublished campaign's name,
system or score reaches the public table; while no unpublished campaign is ranked, both
audiences read the public one. A phase whose only judgments are unpublished campaigns'
(its row is the ranking job's, with no data of its own) has no meta-evaluation for the
public at all.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet

from scoring import build_metrics
from scoring.meta import HumanJudgments, meta_evaluate

from ...access import ORGANIZERS, PUBLIC, may_see_meta_evaluation, meta_evaluation_audience
from ...models import Campaign, Judgments, MetricResult, SharedTask, Submission
from ...refusals import Refusal
from .campaigns import campaign_scheme_samples, campaign_schemes, ranked, scheme_campaigns

SAMPLES = 1000
SEED = 12345
SLOTS = {PUBLIC: ("table", "table_key"), ORGANIZERS: ("organizer_table", "organizer_table_key")}


def judged_phases(task: SharedTask, audience: str) -> QuerySet[Judgments]:
    """The task's judgments rows the audience may know of: all for the organizers; for
    everyone else those with judgments of their own (schemes or rankings) or a published
    ranked campaign, so that a row made for an unpublished campaign stays unseen."""
    rows = Judgments.objects.filter(phase__task=task)
    if audience == ORGANIZERS:
        return rows
    own = ~Q(data__schemes={}) | ~Q(data__rankings={})  # a missing key counts as empty
    published = Exists(ranked(Campaign.objects.filter(phase=OuterRef("phase"), published=True)))
    return rows.filter(own | published)


def judgments_of(task: SharedTask, kind: str | None = None, *, audience: str) -> Judgments | None:
    """The task's judged phase (of that kind) the audience may know of, or None."""
    found = judged_phases(task, audience).select_related("phase__task", "phase__dataset").order_by("phase__starts_at")
    return (found.filter(phase__kind=kind) if kind else found).first()


class MetaHidden(Refusal):
    status = 403


class NoJudgments(Refusal):
    status = 404


def visible_judgments(task: SharedTask, user, kind: str | None) -> tuple[Judgments, str]:
    """The judged phase the page and the API show ``user``, and the audience it is shown
    as; refused while the user may not see it, or where the task has none."""
    if not may_see_meta_evaluation(task, user):
        raise MetaHidden("the meta-evaluation is shown to organizers, and to everyone once the task has ended")
    audience = meta_evaluation_audience(task, user)
    judgments = judgments_of(task, kind, audience=audience)
    if judgments is None:
        raise NoJudgments(f"task {task.slug} has no human judgments (manage.py attach_judgments, or a campaign)")
    return judgments, audience


def has_meta_evaluation(task: SharedTask, audience: str) -> bool:
    """Whether the navigation shows the tab: one ``EXISTS`` query."""
    return judged_phases(task, audience).exists()


def human_of(judgments: Judgments, campaigns: list) -> HumanJudgments:
    """The phase's stored judgments, with the campaigns' EW and TS as schemes
    (``NAME:EW``, ``NAME:TS``; ``campaigns`` from :func:`scheme_campaigns`)."""
    return judged(judgments, campaigns)[0]


def judged(judgments: Judgments, campaigns: list) -> tuple[HumanJudgments, dict[str, Submission]]:
    """The human judgments and ``{system: submission}`` the meta-evaluation correlates.

    A campaign's systems are the submissions it judged, always (a later upload under the
    same name does not replace them); a system named only by the phase's own judgments
    is the latest scored submission of that name. Where a campaign judged another
    submission of a name than the one already chosen, its system is ``NAME#<id>``."""
    human = judgments.human()
    unmapped = {system for *_rest, systems, ids, _samples in campaigns if not ids for system in systems}
    chosen = latest_submissions(judgments, human, unmapped)  # results stored before system_ids: by name
    wanted = {pk for *_rest, ids, _samples in campaigns for pk in (ids or {}).values()}
    own = Submission.objects.filter(pk__in=wanted, status=Submission.Status.SCORED).defer("content")
    by_pk = {s.pk: s for s in own}
    keys: dict[tuple[int, str], str] = {}
    for campaign_pk, _name, _version, _published, systems, ids, _samples in campaigns:
        for system in systems:
            pk = (ids or {}).get(system)
            submission = by_pk.get(pk) if pk is not None else None
            if submission is None:
                continue
            key = system if chosen.get(system, submission).pk == submission.pk else f"{system}#{submission.pk}"
            chosen[key] = submission
            keys[(campaign_pk, system)] = key
    human.schemes = {**human.schemes, **campaign_schemes(campaigns, keys)}
    human.scheme_samples = campaign_scheme_samples(campaigns, keys)
    return human, dict(sorted(chosen.items()))


def latest_submissions(judgments: Judgments, human: HumanJudgments, more: set[str]) -> dict[str, Submission]:
    """``{system name: latest scored submission}`` for every name the phase's own
    judgments (files: schemes and rankings) know, and the names ``more``."""
    names = {n for scores in human.schemes.values() for n in scores} | more
    names |= {system for items in human.rankings.values() for item in items for system, _ in item.ranks}
    chosen: dict[str, Submission] = {}
    scored = Submission.objects.filter(
        phase=judgments.phase, status=Submission.Status.SCORED, system_name__in=names
    ).order_by("created_at", "pk")
    for submission in scored.defer("content"):
        chosen[submission.system_name] = submission
    return chosen


def judged_submissions(judgments: Judgments, campaigns: list) -> dict[str, Submission]:
    """``{system: submission}`` correlated for these campaigns (:func:`judged`)."""
    return judged(judgments, campaigns)[1]


def results_key(judgments: Judgments, submissions: dict[str, Submission], campaigns: list) -> str:
    """Changes whenever a result of these submissions, the judgments, or the counted
    campaigns (which, their rankings, whether published) change."""
    ids = sorted(s.pk for s in submissions.values())
    latest = MetricResult.objects.filter(submission_id__in=ids).aggregate(n=Count("pk"), at=Max("updated_at"))
    counted = [(pk, version, published) for pk, _name, version, published, *_rest in campaigns]
    text = f"{ids}|{latest['n']}|{latest['at']}|{judgments.updated_at.isoformat()}|{SAMPLES}|{SEED}|{counted}"
    return hashlib.sha256(text.encode()).hexdigest()


def slot_of(audience: str, campaigns: list) -> tuple[str, str]:
    """The public slot unless the organizers count an unpublished campaign."""
    every_published = all(published for _pk, _name, _version, published, *_rest in campaigns)
    return SLOTS[PUBLIC if audience != ORGANIZERS or every_published else ORGANIZERS]


class MetaTable(NamedTuple):
    """An audience's meta-evaluation as stored: ``stored`` is the table while its key
    holds (None when stale, or when no judged system is scored)."""

    human: HumanJudgments
    submissions: dict[str, Submission]
    slot: tuple[str, str]
    key: str
    stored: dict | None


def stored_table(judgments: Judgments, audience: str) -> MetaTable:
    campaigns = scheme_campaigns(judgments.phase, unpublished=audience == ORGANIZERS)
    human, submissions = judged(judgments, campaigns)
    key = results_key(judgments, submissions, campaigns)
    table_field, key_field = slot = slot_of(audience, campaigns)
    kept = getattr(judgments, table_field) if getattr(judgments, key_field) == key else None
    return MetaTable(human, submissions, slot, key, kept)


def meta_evaluation_for(judgments: Judgments, audience: str) -> tuple[HumanJudgments, dict | None]:
    """The audience's human judgments and its table of CLI ``--json``'s shape (None when
    no judged system is scored): the stored one while its key holds; a stale one is
    computed for this answer and not kept (a read writes nothing: the worker keeps it,
    :mod:`leaderboard.campaigns.services.meta_tables`)."""
    found = stored_table(judgments, audience)
    if found.stored is not None:
        return found.human, found.stored
    return found.human, compute_table(judgments, found.human, found.submissions)


def meta_table(judgments: Judgments, audience: str) -> dict | None:
    return meta_evaluation_for(judgments, audience)[1]


def compute_table(judgments: Judgments, human: HumanJudgments, submissions: dict[str, Submission]) -> dict | None:
    statistics: dict[str, dict] = {name: {} for name in submissions}
    by_id = {s.pk: name for name, s in submissions.items()}
    for submission_id, metric, stats in MetricResult.objects.filter(submission_id__in=by_id).values_list(
        "submission_id", "metric", "statistics"
    ):
        statistics[by_id[submission_id]][metric] = stats
    if not statistics:
        return None
    task = judgments.phase.task
    metrics = build_metrics(task.metric_names(), task.scoring_options())
    table = meta_evaluate(statistics, metrics, human, samples=SAMPLES, seed=SEED)
    scoring_signature = next(iter(submissions.values())).signature
    table["signature"] = f"{scoring_signature}|{table['signature']}" if scoring_signature else table["signature"]
    return table
