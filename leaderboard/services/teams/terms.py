"""Participants accept a task's terms before their first submission.

A task without a Terms page asks nothing. The terms' version is a hash of their text, so
an acceptance holds for the text that was read: when the organizers change the terms,
each participant accepts again before their next submission.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from ...access import terms_pending
from ...models import SharedTask, TermsAcceptance
from ...models.pages import current_terms, terms_version
from ...refusals import Refusal


class TermsNotAccepted(Refusal):
    """The participant has not accepted the current terms; the message says how to."""

    status = 403


class TermsChanged(Refusal):
    """The version being accepted is not the current one (the terms changed since they were read)."""

    status = 409


def accept_terms(user, task: SharedTask, version: str | None = None) -> TermsAcceptance:
    """Record that ``user`` accepts the current terms (``version``, when given, must be
    the current one: what the participant read). Accepting twice keeps the first time."""
    current = terms_version(current_terms(task))
    if not current:
        raise TermsChanged(f"{task.title} has no terms to accept")
    if version and version != current:
        raise TermsChanged(
            f"the terms of {task.title} changed (version {current}, you read {version}); read them again "
            "before accepting"
        )
    try:
        with transaction.atomic():
            acceptance, _ = TermsAcceptance.objects.get_or_create(task=task, user=user, version=current)
    except IntegrityError:  # accepted at the same moment elsewhere
        acceptance = TermsAcceptance.objects.get(task=task, user=user, version=current)
    return acceptance


def check_terms(user, task: SharedTask) -> None:
    pending = terms_pending(user, task)
    if pending:
        raise TermsNotAccepted(pending)
