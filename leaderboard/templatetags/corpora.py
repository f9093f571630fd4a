"""The corpora of a phase of several corpora as pages name and link them: each corpus's
per-type table and heat map, offered only to whom ``leaderboard.access`` lets see them."""

from django import template
from django.urls import reverse

from .. import access

register = template.Library()


@register.simple_tag
def phase_title(phase) -> str:
    """``Development phase``; a corpus's ``Development phase (uk-ua-gec corpus)``."""
    return access.phase_title(phase)


@register.inclusion_tag("leaderboard/_corpus_links.html", takes_context=True)
def corpus_links(context, phase, here: str = "", systems_query: str = ""):
    """Per corpus, links to its per-type table and heat map; where the viewer may not see
    the heat maps, one line says until when (the corpora share their phase's dates)."""
    parent = phase.parent if phase.parent_id else phase
    if not parent.is_multi_corpus:
        return {"corpora": []}
    user = context["request"].user
    task = parent.task
    results, references = access.may_see_results(parent, user), access.may_see_references(parent, user)
    per_type, difficulty = reverse("per-type", args=[task.slug]), reverse("difficulty", args=[task.slug])
    query = f"&{systems_query}" if systems_query else ""
    corpora = [
        {
            "name": c.corpus,
            "lang": c.dataset.lang,
            "current": c.pk == phase.pk,
            "per_type": f"{per_type}?phase={c.kind}{query}" if results else "",
            "heatmap": f"{difficulty}?phase={c.kind}" if references else "",
        }
        for c in parent.corpora()
    ]
    closed = (
        ""
        if references or not results
        else "The corpora's heat maps show the hidden references: organizers only "
        f"{access.until_references_public(parent)}."
    )
    return {
        "corpora": corpora if results or references else [],
        "closed": closed,
        "here": here,
        "all_per_type": f"{per_type}?phase={parent.kind}{query}" if results and phase.parent_id else "",
    }
