"""Asking before an action: a page that says what will happen, then a POST with ``confirmed``.

Works without JavaScript: the action's button is a GET to the action's URL (or a POST
without ``confirmed``), answered with this page; its button posts again, confirmed.
"""

from django.shortcuts import render


def confirmed(request) -> bool:
    return request.method == "POST" and request.POST.get("confirmed") == "yes"


def confirmation(request, task, *, title: str, consequence: str, cancel: str):
    """The page that asks before an action: what it will do, and the button that does it."""
    return render(
        request,
        "leaderboard/confirm.html",
        {
            "task": task,
            "title": title,
            "consequence": consequence,
            "action": request.get_full_path(),
            "cancel": cancel,
            "next": request.POST.get("next", "") or request.GET.get("next", ""),
        },
    )
