"""The task's own tabs (Overview, Data, Evaluation, Terms) for the task navigation."""

from django import template

from ..models import TaskPage
from ..selectors.shared_tasks import written_page_names

register = template.Library()


@register.simple_tag
def task_tabs(task) -> list[tuple[str, str]]:
    """``[(name, label)]``: the written pages, and Data always (it lists the phases' files)."""
    written = written_page_names(task)
    return [(name, label) for name, label in TaskPage.Name.choices if name in written or name == TaskPage.Name.DATA]


@register.simple_tag
def scores_metric(task, name: str) -> bool:
    """Whether the task scores the metric ``name``: a tab about one metric (CLEME2.0) is
    left out of a task that does not, rather than opening on an empty page."""
    return name in task.metric_names()
