"""A task's own pages (Overview, Data, Evaluation, Terms), written by its organizers in
Markdown, and each participant's acceptance of the terms."""

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Case, Value, When
from django.utils import timezone

from ..request_answers import remembered


class TaskPage(models.Model):
    """One tab of the task page; an empty ``markdown`` is no tab at all."""

    class Name(models.TextChoices):
        OVERVIEW = "overview", "Overview"
        DATA = "data", "Data"
        EVALUATION = "evaluation", "Evaluation"
        TERMS = "terms", "Terms"

    task = models.ForeignKey("leaderboard.SharedTask", on_delete=models.CASCADE, related_name="pages")
    name = models.CharField(max_length=16, choices=Name.choices)
    markdown = models.TextField(blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["task", "name"], name="one_page_per_name")]

    def __str__(self):
        return f"{self.task.slug}/{self.name}"


class TermsAcceptance(models.Model):
    """A participant accepted the terms of ``version`` (the hash of their text) at
    ``accepted_at``: a change of the terms asks for a new acceptance."""

    task = models.ForeignKey("leaderboard.SharedTask", on_delete=models.CASCADE, related_name="terms_acceptances")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="terms_acceptances")
    version = models.CharField(max_length=16)
    accepted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["task", "user", "version"], name="one_acceptance_per_version")]

    def __str__(self):
        return f"{self.user} accepted {self.task.slug} terms {self.version}"


def current_terms(task) -> str:
    """The task's Terms page; empty when it has none (nothing to accept)."""
    return written_pages(task).get(TaskPage.Name.TERMS, "")


def written_pages(task) -> dict[str, str]:
    """The task's pages its organizers wrote (an empty one is none), by name, with the
    Terms' text (the others' is read by their own tab): one query a request, which the
    navigation's tabs and the phase box's terms both ask."""
    return remembered(("written pages", task.pk), lambda: _written_pages(task))


def _written_pages(task) -> dict[str, str]:
    terms_text = Case(
        When(name=TaskPage.Name.TERMS, then="markdown"), default=Value(""), output_field=models.TextField()
    )
    return dict(TaskPage.objects.filter(task=task).exclude(markdown="").values_list("name", terms_text))


def terms_version(text: str) -> str:
    """What an acceptance records: a hash of the text accepted."""
    return hashlib.sha256(text.encode()).hexdigest()[:12] if text else ""
