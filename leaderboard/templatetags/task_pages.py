"""The task's own tabs (Overview, Data, Evaluation, Terms) for the task navigation."""

from django import template

from ..models import TaskPage

register = template.Library()


@register.simple_tag
def task_tabs(task) -> list[tuple[str, str]]:
    """``[(name, label)]``: the written pages, and Data always (it lists the phases' files)."""
    written = set(TaskPage.objects.filter(task=task).exclude(markdown="").values_list("name", flat=True))
    return [(name, label) for name, label in TaskPage.Name.choices if name in written or name == TaskPage.Name.DATA]
