"""Read paths of human evaluation campaigns: an annotator's next screen, the live figures,
the board's human columns.

An annotator's screen is built from the :class:`~leaderboard.models.Screen` row alone
(its source, context and :meth:`~leaderboard.models.Screen.shown_outputs`): no system,
team, submission, score or reference is ever read for it, so none can reach the page or
the API. The figures are what the worker last stored (``Campaign.results``); only the
progress counts are read live, with two indexed counts.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from ... import access
from ...models import Assignment, Campaign, SharedTask
from ..models.campaigns import queue_counts
from ..registry import mode_of, rating_modes
from .ratings import rating_schemes


def campaign_named(task: SharedTask, name: str) -> Campaign | None:
    return Campaign.objects.select_related("task", "phase").filter(task=task, name=name).first()


def annotated_campaign(slug: str, name: str) -> Campaign | None:
    """The campaign an annotator's request names, in one query and without the stored
    figures (the ``next/`` and ``judgments/`` path: its cost is every screen's)."""
    return (
        Campaign.objects.select_related("task")
        .defer("results", "task__description")
        .filter(task__slug=slug, name=name)
        .first()
    )


def task_campaigns(task: SharedTask, *, organizer: bool, user=None) -> list[Campaign]:
    """The campaigns a viewer may know of: all (organizers), else the published ones and
    those the user annotates."""
    campaigns = Campaign.objects.filter(task=task).select_related("phase")
    if organizer:
        return list(campaigns)
    known = Q(published=True)
    if user is not None and user.is_authenticated:
        known |= Q(annotators=user)
    return list(campaigns.filter(known).distinct())


def annotator_progress(campaign: Campaign, user) -> dict:
    counts = Assignment.objects.filter(campaign=campaign, annotator=user).aggregate(**queue_counts())
    return {"done": counts["done"], "total": counts["total"]}


def next_screen(campaign: Campaign, user) -> dict | None:
    """The API's ``next/`` body for the user's first unjudged screen; None when done."""
    assignment = (
        Assignment.objects.filter(campaign=campaign, annotator=user, judged=False, skipped=False)
        .select_related("screen")
        .only("pk", "practice", "screen__source", "screen__before", "screen__after", "screen__outputs")
        .order_by("position")
        .first()
    )
    if assignment is None:
        return None
    screen = assignment.screen
    body = {
        "item": assignment.pk,
        "source": screen.source,
        "context": {"before": screen.before, "after": screen.after},
        "outputs": screen.shown_outputs(),
        "mode": campaign.mode,
        "practice": assignment.practice,
        "progress": annotator_progress(campaign, user),
    }
    if mode_of(campaign).rates:
        body["scales"] = campaign.scales
    return body


def progress(campaign: Campaign) -> dict:
    """Screens judged of those assigned, overall and per annotator (live; counted as the
    invitations' table and the annotator's own progress count them, :func:`queue_counts`)."""
    rows = (
        Assignment.objects.filter(campaign=campaign, annotator__isnull=False)
        .values("annotator__username")
        .annotate(**queue_counts())
        .order_by("annotator__username")
    )
    # done and total come from annotate(**queue_counts()): django-stubs cannot see **-spread annotations
    per = {r["annotator__username"]: {"done": r["done"], "total": r["total"]} for r in rows}  # type: ignore[misc]
    done, total = sum(p["done"] for p in per.values()), sum(p["total"] for p in per.values())
    return {"done": done, "total": total, "share": done / total if total else 0.0, "annotators": per}


def campaign_summary(campaign: Campaign) -> dict:
    """The results API's body: the stored figures, the live progress, the campaign's settings."""
    results = dict(
        campaign.results
        or {"systems": {}, "clusters": [], "agreement": {"inter": None, "intra": None}, "rankings": 0, "annotators": []}
    )
    results.pop("system_ids", None)
    results.pop("samples", None)  # 1,000 figures a system, for the meta-evaluation only
    return {
        "name": campaign.name,
        "phase": campaign.phase.kind,
        "mode": campaign.mode,
        "status": campaign.status,
        "message": campaign.message,
        "published": campaign.published,
        "ranked_at": campaign.ranked_at.isoformat() if campaign.ranked_at else None,
        "up_to_date": campaign.ranked_version >= campaign.version,
        **results,
        **({"scales": campaign.scales} if mode_of(campaign).rates else {}),
        "progress": progress(campaign),
    }


def without_annotators(summary: dict) -> dict:
    """The summary for someone who may see the results but not who annotated
    (:func:`leaderboard.access.may_see_annotators`): every username left out, counts kept."""
    shown = dict(summary)
    annotators = summary.get("annotators") or []
    shown["annotators"], shown["controls"] = [], []
    shown["annotator_count"] = len(annotators) if isinstance(annotators, list) else annotators
    progress = dict(summary.get("progress") or {})
    progress["annotators"] = {}
    shown["progress"] = progress
    agreement = dict(summary.get("agreement") or {})
    agreement.pop("intra_alpha_by_annotator", None)
    shown["agreement"] = agreement
    return shown


def summary_for(campaign: Campaign, user) -> dict:
    """:func:`campaign_summary` as ``user`` may see it."""
    summary = campaign_summary(campaign)
    return summary if access.may_see_annotators(campaign, user) else without_annotators(summary)


def ranked_rows(campaign: Campaign) -> list[dict]:
    """The ranking as table rows, best first: system, EW, TrueSkill, range, cluster."""
    systems = (campaign.results or {}).get("systems", {})
    rows = [{"system": name, **values} for name, values in systems.items()]
    return sorted(rows, key=lambda r: (r.get("cluster", 0), -(r.get("expected_wins") or 0.0)))


def ranked(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """Those with a stored ranking of at least one system (what a meta-evaluation counts)."""
    return campaigns.filter(results__isnull=False).exclude(results__systems={})


def scheme_campaigns(phase, *, unpublished: bool) -> list[tuple[int, str, int, bool, dict, dict | None, Any]]:
    """``(pk, name, ranked_version, published, systems, system_ids, EW samples)`` of the phase's ranked
    campaigns that its meta-evaluation counts: those with at least
    ``GEC_CAMPAIGN_MIN_RANKINGS`` counted rankings, published, and with ``unpublished``
    the others too (the organizers'). One query; only the ranking is read of the results."""
    least = settings.GEC_CAMPAIGN_MIN_RANKINGS  # a rating campaign's counted ratings stand for its rankings
    campaigns = ranked(Campaign.objects.filter(phase=phase)).filter(
        Q(results__rankings__gte=least) | Q(mode__in=rating_modes(), results__ratings__gte=least)
    )
    if not unpublished:
        campaigns = campaigns.filter(published=True)
    return list(
        campaigns.order_by("pk").values_list(
            "pk",
            "name",
            "ranked_version",
            "published",
            "results__systems",
            "results__system_ids",
            "results__samples__expected_wins",
        )
    )


def campaign_schemes(campaigns: list[tuple], keys: dict[tuple[int, str], str] | None = None) -> dict:
    """``{"NAME:EW": {system: EW}, "NAME:TS": ...}`` of :func:`scheme_campaigns`' rows, for
    the meta-evaluation; ``keys`` renames a campaign's system (``(campaign pk, system)``)."""
    keys = keys or {}
    schemes = {}
    for pk, name, _version, _published, systems, _ids, _samples in campaigns:
        if any("scales" in v for v in systems.values()):  # a rating campaign: a scheme per scale
            schemes.update(rating_schemes(name, {keys.get((pk, s), s): v for s, v in systems.items()}))
            continue
        schemes[f"{name}:EW"] = {keys.get((pk, s), s): v["expected_wins"] for s, v in systems.items()}
        schemes[f"{name}:TS"] = {keys.get((pk, s), s): v["trueskill"] for s, v in systems.items()}
    return schemes


def campaign_scheme_samples(campaigns: list[tuple], keys: dict[tuple[int, str], str] | None = None) -> dict:
    """``{"NAME:EW": {system: [EW per resampling of the judgments]}}`` of the campaigns that
    stored them (TrueSkill is not resampled: 1,000 replays would take minutes)."""
    keys = keys or {}
    return {
        f"{name}:EW": {keys.get((pk, s), s): values for s, values in samples.items()}
        for pk, name, _version, _published, _systems, _ids, samples in campaigns
        if samples
    }
