"""The organizers' pages of a task: Overview, Data, Evaluation and Terms, in Markdown."""

from __future__ import annotations

from django.utils import timezone

from ...models import SharedTask, TaskPage
from ...refusals import Refusal
from ...sanitise import MAX_PAGE_CHARS

PAGE_NAMES = [name for name, _ in TaskPage.Name.choices]


class PageError(Refusal):
    """A page refused, with a message the organizer can act on."""


def written_pages(task: SharedTask) -> dict[str, str]:
    """``{name: markdown}`` of the pages with text, in tab order."""
    text = dict(TaskPage.objects.filter(task=task).exclude(markdown="").values_list("name", "markdown"))
    return {name: text[name] for name in PAGE_NAMES if name in text}


def save_page(task: SharedTask, name: str, markdown: str) -> TaskPage:
    """Write one page; empty text removes its tab. Saving new Terms asks every participant
    to accept them again before their next submission (:mod:`.terms`)."""
    if name not in PAGE_NAMES:
        raise PageError(f"no page {name!r}; the pages are {', '.join(PAGE_NAMES)}")
    markdown = markdown.replace("\r\n", "\n").strip()
    if len(markdown) > MAX_PAGE_CHARS:
        raise PageError(f"the {name} page has {len(markdown)} characters; a page has at most {MAX_PAGE_CHARS}")
    page, _ = TaskPage.objects.update_or_create(
        task=task, name=name, defaults={"markdown": markdown, "updated_at": timezone.now()}
    )
    return page
