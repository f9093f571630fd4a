"""What the navigation and the phase box may show: each answer comes from ``leaderboard.access``."""

from django import template
from django.urls import reverse

from ..access import (
    inputs_closed_reason,
    may_organize,
    may_see_meta_evaluation,
    may_see_references,
    may_see_results,
    meta_evaluation_audience,
    references_closed_reason,
    upload_closed_reason,
)
from ..access import may_host as _may_host
from ..campaigns.insights.meta import has_meta_evaluation
from ..campaigns.selectors.campaigns import may_see_a_campaign
from ..models import SharedTask
from ..selectors.submissions import followed_submission
from ..services.boards import polled
from ..services.submissions.intake import remaining_submissions, team_of

register = template.Library()


@register.simple_tag(takes_context=True)
def may_host(context) -> bool:
    """The "Host a task" link; on a task's page, asked with whether the viewer organizes
    it (one query answers both, and the page asks that too)."""
    request = context.get("request")
    if not request:
        return False
    task = context.get("task")
    if isinstance(task, SharedTask):
        may_organize(task, request.user)
    return _may_host(request.user)


@register.simple_tag(takes_context=True)
def organizes(context, task) -> bool:
    return may_organize(task, context["request"].user)


@register.simple_tag(takes_context=True)
def sees_results(context, phase) -> bool:
    return may_see_results(phase, context["request"].user)


@register.simple_tag(takes_context=True)
def sees_meta_evaluation(context, task) -> bool:
    """The Meta-evaluation tab: only on a task with human judgments the viewer may know of
    (an unpublished campaign's are the organizers'), for those who may see it."""
    user = context["request"].user
    return may_see_meta_evaluation(task, user) and has_meta_evaluation(task, meta_evaluation_audience(task, user))


@register.simple_tag(takes_context=True)
def sees_references(context, phase) -> bool:
    """For the context's ``viewer`` when it names one (a board rendered as the public sees it)."""
    viewer = context.get("viewer")
    return may_see_references(phase, viewer if viewer is not None else context["request"].user)


@register.inclusion_tag("leaderboard/_phase_status.html", takes_context=True)
def phase_status(context):
    """The phase's state, its next date with a countdown, and the user's remaining uploads."""
    request, phase = context["request"], context["phase"]
    team = team_of(request.user, phase.task, create=False)
    remaining = remaining_submissions(phase, team) if team else {"per_day": phase.max_per_day, "total": phase.max_total}
    state = phase.state()
    deadline = {"upcoming": ("opens", phase.starts_at), "open": ("closes", phase.ends_at)}.get(state, (None, None))
    return {
        "phase": phase,
        "state": state,
        "deadline": deadline[1],
        "deadline_verb": deadline[0],
        "team": team,
        "remaining": remaining,
        "closed": upload_closed_reason(phase, request.user),
        "inputs_closed": inputs_closed_reason(phase, request.user),
        "references_closed": references_closed_reason(phase, request.user),
    }


@register.simple_tag(takes_context=True)
def sees_campaigns(context, task) -> bool:
    """The Human evaluation tab: organizers, a campaign's annotators, and everyone once one is published."""
    user = context["request"].user
    if may_organize(task, user):
        return True
    return may_see_a_campaign(task, user)


@register.simple_tag(takes_context=True)
def live_status_url(context, submission_id) -> str:
    """Where a banner about an upload polls its status: the team's channel for a member
    (the proxy answers), the status API for an organizer (services/boards/polled.py).
    Only named here: the upload's view wrote the channel (rendering writes nothing)."""
    submission = followed_submission(submission_id)
    if submission is None:
        return reverse("api-submission-status", args=[submission_id])
    return polled.status_url(context["request"].user, submission)
