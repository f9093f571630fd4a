"""Participants accept a task's terms before their first submission.

A task without a Terms page asks nothing. The terms' version is a hash of their text, so
an acceptance holds for the text that was read: when the organizers change the terms,
each participant accepts again before their next submission.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction

from ..models import SharedTask, TermsAcceptance
from ..models.pages import current_terms, terms_version


class TermsNotAccepted(Exception):
    """HTTP 403: the participant has not accepted the current terms; the message says how to."""


class TermsChanged(Exception):
    """HTTP 409: the version being accepted is not the current one (the terms changed since they were read)."""


def accepted_at(user, task: SharedTask, version: str):
    """When ``user`` accepted ``version`` of the task's terms; None if they have not."""
    if not user.is_authenticated:
        return None
    return TermsAcceptance.objects.filter(task=task, user=user, version=version).values_list("accepted_at", flat=True).first()


def accept_terms(user, task: SharedTask, version: str | None = None) -> TermsAcceptance:
    """Record that ``user`` accepts the current terms (``version``, when given, must be
    the current one: what the participant read). Accepting twice keeps the first time."""
    current = terms_version(current_terms(task))
    if not current:
        raise TermsChanged(f"{task.title} has no terms to accept")
    if version and version != current:
        raise TermsChanged(f"the terms of {task.title} changed (version {current}, you read {version}); read them again before accepting")
    try:
        with transaction.atomic():
            acceptance, _ = TermsAcceptance.objects.get_or_create(task=task, user=user, version=current)
    except IntegrityError:  # accepted at the same moment elsewhere
        acceptance = TermsAcceptance.objects.get(task=task, user=user, version=current)
    return acceptance


def how_to_accept(task: SharedTask) -> str:
    return (f"accept the terms of {task.title} first: on its Terms tab (/tasks/{task.slug}/pages/terms/), "
            f"with `gec-submit accept-terms {task.slug}`, or POST /api/tasks/{task.slug}/terms/")


def terms_pending(user, task: SharedTask) -> str:
    """Why ``user`` may not submit yet for want of accepted terms; empty when they may."""
    version = terms_version(current_terms(task))
    if not version or accepted_at(user, task, version):
        return ""
    earlier = user.is_authenticated and TermsAcceptance.objects.filter(task=task, user=user).exists()
    return ("The terms changed since you accepted them: " if earlier else "You have not accepted the terms yet: ") + how_to_accept(task) + "."


def check_terms(user, task: SharedTask) -> None:
    pending = terms_pending(user, task)
    if pending:
        raise TermsNotAccepted(pending)
