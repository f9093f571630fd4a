"""An annotator's judgments: checked, stored once per screen, and the ranking re-queued.

A judgment ranks every output of the screen, 1 = best, ties allowed (ranks 1..n); in
mode ``edits`` it also marks each listed edit of each output valid (true) or invalid.
Storing it bumps the campaign's version and asks for one re-ranking job: a job already
queued and not started will see this judgment too, so thousands of judgments arriving
at once queue a handful of jobs, not thousands.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from ...models import Assignment, Campaign, Judgment
from ...refusals import Refusal
from ..registry import mode_of
from .jobs import run_campaign_job


class JudgmentError(Refusal):
    """A judgment that cannot be stored; ``problems`` names each."""


class AlreadyJudged(Refusal):
    """The screen was judged before (a second click, another tab)."""

    status = 409


def check_ranks(outputs: list[dict], ranks) -> list[str]:
    keys = [o["key"] for o in outputs]
    if not isinstance(ranks, dict):
        return ["ranks: an object {output key: rank}"]
    problems = []
    missing = [k for k in keys if k not in ranks]
    unknown = [str(k) for k in ranks if k not in keys]
    if missing:
        problems.append(f"ranks: no rank for {', '.join(missing)}")
    if unknown:
        problems.append(
            f"ranks: no output {', '.join(unknown[:10])} on this screen (its outputs are {', '.join(keys)})"
        )
    for key, rank in ranks.items():
        if key in keys and (isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(keys)):
            problems.append(
                f"ranks: {key}'s rank must be a whole number from 1 (best) to {len(keys)} (got {shown(rank)})"
            )
    return problems


def shown(value: object, limit: int = 40) -> str:
    """A value as sent, cut short: an error names it without echoing a body back."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_edits(outputs: list[dict], edits, marks_edits: bool) -> list[str]:
    if not marks_edits:
        return [] if edits in (None, {}) else ["edits: only a campaign in mode edits judges edits"]
    if not isinstance(edits, dict):
        return ["edits: an object {output key: [true (valid) or false (invalid), one per listed edit]}"]
    problems = []
    for output in outputs:
        marks = edits.get(output["key"], [] if not output["edits"] else None)
        if (
            not isinstance(marks, list)
            or len(marks) != len(output["edits"])
            or not all(isinstance(m, bool) for m in marks)
        ):
            problems.append(
                f"edits: {output['key']} needs {len(output['edits'])} marks, true (valid) or false (invalid)"
            )
    unknown = [str(k) for k in edits if k not in {o["key"] for o in outputs}]
    if unknown:
        problems.append(f"edits: no output {', '.join(unknown[:10])} on this screen")
    return problems


MAX_SECONDS = 3600.0  # a screen left open overnight says nothing about its time: capped


def check_seconds(seconds) -> list[str]:
    if seconds is None:
        return []
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= 86_400:
        return [f"duration: seconds spent on the screen, from 0 to 86400 (got {seconds!r})"]
    return []


def open_assignment(campaign: Campaign, user, item) -> Assignment:
    """The user's assignment ``item``, locked, not yet judged or skipped (inside a transaction)."""
    if isinstance(item, bool) or not isinstance(item, int):
        raise JudgmentError([f"item: the item number next/ gave (got {shown(item)})"])
    assignment = (
        Assignment.objects.select_for_update()
        .select_related("screen")
        .filter(pk=item, campaign=campaign, annotator=user)
        .first()
    )
    if assignment is None:
        raise JudgmentError([f"item: {item} is not one of your screens in campaign {campaign.name}"])
    if assignment.judged or assignment.skipped:
        raise AlreadyJudged(f"item {item} was {'judged' if assignment.judged else 'skipped'} already")
    return assignment


def store(campaign: Campaign, user, assignment: Assignment, seconds, **judged) -> Judgment | None:
    """Mark a checked ``assignment`` judged (with the ``seconds`` spent, capped at an hour)
    and store what was ``judged`` (ranks and edits, or ratings); a practice screen's is
    not stored (None). Inside the caller's transaction, which locked the assignment."""
    duration = None if seconds is None else min(float(seconds), MAX_SECONDS)
    Assignment.objects.filter(pk=assignment.pk).update(judged=True, seconds=duration)
    if assignment.practice:
        return None
    judgment = Judgment.objects.create(
        campaign=campaign,
        assignment=assignment,
        annotator=user,
        user=user.get_username(),
        line=assignment.screen.line,
        duration=duration,
        **judged,
    )
    judgments_changed(campaign)
    return judgment


def record_judgment(campaign: Campaign, user, item, ranks, edits=None, seconds=None) -> Judgment | None:
    """Store ``user``'s judgment of their assignment ``item`` (:func:`store`). Raises
    :class:`JudgmentError` (400) naming what is wrong, :class:`AlreadyJudged` (409)."""
    with transaction.atomic():
        assignment = open_assignment(campaign, user, item)
        outputs = assignment.screen.outputs
        problems = (
            check_ranks(outputs, ranks)
            + check_edits(outputs, edits, mode_of(campaign).marks_edits)
            + check_seconds(seconds)
        )
        if problems:
            raise JudgmentError(problems)
        ranked = {k: ranks[k] for k in (o["key"] for o in outputs)}
        return store(campaign, user, assignment, seconds, ranks=ranked, edits=edits or {})


def skip_screen(campaign: Campaign, user, item, comment: str, seconds=None) -> Assignment:
    """Skip a broken screen (no judgment; the organizers read ``comment`` on its row)."""
    comment = comment.strip() if isinstance(comment, str) else ""
    if not comment or len(comment) > 2000:
        raise JudgmentError(["comment: say in up to 2000 characters what is wrong with the screen"])
    with transaction.atomic():
        assignment = open_assignment(campaign, user, item)
        problems = check_seconds(seconds)
        if problems:
            raise JudgmentError(problems)
        duration = None if seconds is None else min(float(seconds), MAX_SECONDS)
        Assignment.objects.filter(pk=assignment.pk).update(skipped=True, comment=comment, seconds=duration)
        judgments_changed(campaign)  # the organizer's page follows the version
    return assignment


def judgments_changed(campaign: Campaign) -> None:
    """Bump the version and queue a re-ranking unless one is queued (inside a transaction)."""
    Campaign.objects.filter(pk=campaign.pk).update(version=F("version") + 1)
    if Campaign.objects.filter(pk=campaign.pk, rank_queued=False).update(rank_queued=True):
        transaction.on_commit(lambda: run_campaign_job.enqueue(campaign.pk))
