"""The pages: task list, live leaderboard, upload form, one submission.

The leaderboard updates without a reload: the page polls the phase's version
(:func:`task_version`, answered by the proxy for a public phase) and fetches its rows
fragment only when it changed, rendered once per audience and version for every viewer
(:mod:`.live`); ``?since=`` still answers 204 when nothing changed. A viewer who may not
see the results never gets the pool version (:func:`shown_version`). Polling over
server-sent events because it needs nothing from the deployment: sync gunicorn
workers, runserver and any proxy serve it, and an open page holds no worker.
"""

import hashlib
import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

import scoring
from scoring import label

from .. import access, params
from ..board_version import board_version
from ..campaigns.board import builtin_rows, column_heads
from ..insights.paths import metric_paths, rank_by_choices, reference_free_columns
from ..insights.team_submissions import team_submissions
from ..models import Phase, SharedTask
from ..models.shared_tasks import PhaseNotNamed
from ..refusals import Refusal
from ..selectors.shared_tasks import listed_tasks, task_or_404, with_phases
from ..services.boards import polled
from ..services.boards.publish import OWN_SHOWN  # the team's newest under the board; the rest on My submissions
from ..services.submissions.intake import accept_submission, team_of
from ..standings import headline_metric
from .board_snapshot import hidden_board, shown_board
from .forms import UploadForm
from .fragment_cache import shared_body_of


def home(request):
    tasks = listed_tasks()
    return render(request, "leaderboard/home.html", {"tasks": tasks})


def results_phase(request, slug: str) -> tuple[SharedTask, Phase]:
    """The task and the phase asked for, when this user may see that phase's results."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    if not access.may_see_results(phase, request.user):
        raise PermissionDenied(access.results_denied(phase))
    return task, phase


VERSION = re.compile(r"[a-z0-9-]+")


def own_rows(request, task: SharedTask, phase: Phase) -> list[dict]:
    """The viewer's team's latest submissions as "My submissions" shows them (access rules applied)."""
    return team_rows(phase, team_of(request.user, task, create=False), request.user)


def team_rows(phase: Phase, team, user) -> list[dict]:
    """``team``'s newest submissions under the board, as ``user`` may see them (statuses only)."""
    return team_submissions(phase, team, user, latest=OWN_SHOWN, with_scores=False)


def shown_version(phase: Phase, visible: bool, own: list[dict]) -> str:
    """What the polled fragment compares ``?since=`` with. The pool's version counts
    every scored upload, so a viewer who may not see the results gets a version made of
    what they do see: their own submissions' rows, as shown (a blind phase shows only
    that each was received)."""
    if visible:
        return str(board_version(phase.pk))
    shown = [(row["id"], row["status"], row["progress"], row["error"]) for row in own]
    return "own-" + hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def _results_context(request, task: SharedTask, phase: Phase, visible: bool, version: str) -> dict:
    """The board itself (``_board_results.html``): the same for every viewer who may see
    it, read once per version (:mod:`.board_snapshot`)."""
    metric = params.metric(request.GET, lambda: metric_paths(phase), headline_metric(task))
    track = params.choice(request.GET, "track", task.tracks or [])
    board = shown_board(phase, metric, track, version) if visible else hidden_board(phase, metric, track)
    rows, human = board["rows"], board["human"]
    rank_by = rank_by_choices(task, rows)
    shown = rank_by if metric in dict(rank_by) else [*rank_by, (metric, label(metric))]
    return {
        "task": task,
        "phase": phase,
        "metric": metric,
        "track": track,
        "rank_by": shown,  # the "Rank by" list and the board's score columns
        "reference_free": reference_free_columns(shown),  # columns of a group of their own
        "metric_name": dict(shown)[metric],
        "rows": rows,
        "human": column_heads(human),  # published human evaluation campaigns: a column group each
        "builtin_rows": builtin_rows(human),  # their rated ORIGINAL / REFERENCE: marked rows at the foot
        "visible": visible,
        "extra": board["extra"],
    }


def _own_context(own: list[dict], version: str) -> dict:
    """What the fragment adds around the board: its version and the team's own rows."""
    return {
        "version": version,
        "own": own,
        "pending": any(not row["finished"] for row in own),
    }  # as shown: a blind phase's "received" is final


def _board_context(request, task: SharedTask, phase: Phase) -> dict:
    visible = access.may_see_results(phase, request.user)
    team = team_of(request.user, task, create=False)
    own = team_rows(phase, team, request.user)
    own_url, own_since = polled.own_rows(request.user, phase, team, own)
    version = shown_version(phase, visible, own)  # before the board: a copy is never older than its key
    context = {
        **_results_context(request, task, phase, visible, version),
        "own_url": own_url,
        "own_since": own_since,
    }
    if visible:  # the polled fragment's body, rendered once per version for all who see it
        version, body = _shared_results(request, task, phase, version, None, as_viewer=True)
        context["board_html"] = mark_safe(body.decode())  # rendered by the templates, escaped there
    return {**context, **_own_context(own, version)}


def task_board(request, slug):
    task = with_phases(task_or_404(slug))  # one read for the current phase, the nav, the tabs and the phase box
    return render(request, "leaderboard/task.html", _board_context(request, task, access.phase_for(request, task)))


def task_rows(request, slug):
    """The polled board: 204 while nothing changed since the version the page shows.

    For a phase whose results are public the board is the same for everyone (rendered as
    the public sees it: the session is never read) and says so (``public, s-maxage=1``):
    the proxy keeps it a second, so a crowd of open pages costs Django one render a second
    (docker/nginx/gec.conf.template). Otherwise it is the viewer's, ``private``: rendered
    once per version for all who see the same (views/fragment_cache.py). The team's own rows are
    :func:`task_own_rows`, polled apart."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    since = params.text(request.GET, "since", max_length=40, pattern=VERSION)
    page = fragment_page(request)
    public = phase.results_public()
    viewer = AnonymousUser() if public else request.user
    visible = access.may_see_results(phase, viewer)
    version = shown_version(phase, visible, [] if visible else own_rows(request, task, phase))
    if since and since == version:
        return HttpResponse(status=204)
    if visible:  # the version read first, so a copy is never older than its key
        version, results = _shared_results(request, task, phase, version, page)
    else:
        results = _results_html(request, task, phase, viewer, version, page)
    response = HttpResponse(f'<div data-version="{version}">'.encode() + results + b"</div>")
    response["Cache-Control"] = "public, max-age=0, s-maxage=1" if public else "private, no-store"
    return response


def _shared_results(
    request, task: SharedTask, phase: Phase, version: str, page, as_viewer: bool = False
) -> tuple[str, bytes]:
    """(the version it is of, the board's HTML) as everyone who may see the results gets it
    (the public's for a public phase: the session is never read), rendered once per
    version and query; an older copy, answered while another process renders, comes with
    its own version (:func:`.fragment_cache.shared_body_of`). Who it was rendered for is
    in its key: a copy made for the organizers while the results were hidden shows what
    may since have been withdrawn, and is never the public's once they are revealed.
    ``as_viewer`` (the page): rendered as the viewer when they may see references the
    public may not (the key says so)."""
    public = phase.results_public()
    viewer = AnonymousUser() if public else request.user
    if as_viewer and access.may_see_references(phase, request.user) != access.may_see_references(phase, viewer):
        viewer = request.user  # the page: an organizer's corpus links lead to the references' pages
    parts = (
        "board",
        phase.pk,
        public,  # the latest copy of another version is answered: never the organizers' to the public
        access.may_see_references(phase, viewer),
        request.GET.get("metric", ""),
        request.GET.get("track", ""),
        page,
    )
    shown_at, body = shared_body_of(parts, version, lambda: _results_html(request, task, phase, viewer, version, page))
    return str(shown_at), body


MAX_PAGE = 1000  # rows of one page of the fragment, as the board API's


def fragment_page(request) -> tuple[int, int] | None:
    """The opt-in ``limit`` and ``offset`` of the rows fragment (as the board API's, docs/api.md);
    None without ``limit``: every row, as the task page asks. A 400 names a bad one."""
    limit = params.number(request.GET, "limit", default=0, minimum=1, maximum=MAX_PAGE)
    offset = params.number(request.GET, "offset", default=0)
    return (offset, limit) if limit else None


def _results_html(request, task: SharedTask, phase: Phase, viewer, version: str, page=None) -> bytes:
    """The board as ``viewer`` may see it (the public's for a public phase) at ``version``;
    with ``page`` its rows ``offset`` .. ``offset + limit - 1`` only (each row keeps its own rank)."""
    visible = access.may_see_results(phase, viewer)
    context = {**_results_context(request, task, phase, visible, version), "viewer": viewer}
    if page is not None:
        offset, limit = page
        context["extra"] = {**context["extra"], "rows": context["extra"]["rows"][offset : offset + limit]}
    return render_to_string("leaderboard/_board_results.html", context).encode()


def task_own_rows(request, slug):
    """The viewer's team's newest submissions under the board, as this viewer may see
    them: what an organizer's task page polls (a member's polls the team's live channel,
    services/boards/polled.py)."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    own = own_rows(request, task, phase)
    return render(request, "leaderboard/_board_own.html", {"task": task, "phase": phase, **_own_context(own, "")})


def task_version(request, slug):
    """The version the pages of this phase show (a few bytes of text), which the live
    module (static/leaderboard/live.js) polls. For a phase whose results are public it is
    the same for everyone and says so (``public, s-maxage=1``, an ETag): the proxy keeps it
    a second and answers every other poll itself, session cookie or not, so a crowd of
    open pages costs Django one request a second per phase. Otherwise it is the viewer's
    own (:func:`shown_version`, ``private``), which never reveals a hidden pool's."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    if phase.results_public():  # the same for everyone: the session is never loaded
        version, sharing = str(board_version(phase.pk)), "public, max-age=0, s-maxage=1"
    else:
        visible = access.may_see_results(phase, request.user)
        version, sharing = (
            shown_version(phase, visible, [] if visible else own_rows(request, task, phase)),
            "private, no-store",
        )
    etag = f'"{version}"'
    response = (
        HttpResponseNotModified()
        if request.headers.get("If-None-Match") == etag
        else HttpResponse(version, content_type="text/plain")
    )
    response["ETag"] = etag
    response["Cache-Control"] = sharing
    return response


@login_required
def submit(request, slug):
    """The upload form of the phase named by ``?phase=``, else of the one open phase whose
    results are public; when that is not clear, the page asks which phase is meant."""
    task = task_or_404(slug)
    try:
        phase = access.upload_phase(task, params.phase_key(request.GET))
    except PhaseNotNamed as error:
        return render(
            request,
            "leaderboard/submit_choose.html",
            {"task": task, "phase": task.current_phase(), "choices": error.choices},
        )
    form = UploadForm(request.POST or None, request.FILES or None, tracks=task.tracks or [])
    closed = access.upload_closed_reason(phase, request.user)
    if closed:  # the form is shown disabled, with the reason
        return render(
            request,
            "leaderboard/submit.html",
            {"task": task, "phase": phase, "form": form, "closed": closed},
            status=403 if request.method == "POST" else 200,
        )
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            submission = accept_submission(
                phase,
                request.user,
                system_name=form.cleaned_data["system_name"],
                filename=upload.name,
                content=upload.read(),
                description=form.cleaned_data["description"],
                track=form.cleaned_data.get("track", ""),
                corpus=form.cleaned_data["corpus"],
            )
        except scoring.InputError as error:
            form.add_error("file", "The file was not accepted:")
            return render(
                request,
                "leaderboard/submit.html",
                {"task": task, "phase": phase, "form": form, "problems": error.problems},
                status=400,
            )
        except Refusal as error:
            form.add_error(None, str(error))
            return render(
                request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form}, status=error.status
            )
        polled.status(request.user, submission)  # the banner's channel, before the page that follows it
        messages.success(
            request,
            f"Submission {submission.pk} is queued; the leaderboard updates when it is scored.",
            extra_tags=f"follow-submission-{submission.pk}",
        )
        return redirect(f"/tasks/{task.slug}/?phase={phase.kind}")
    return render(request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form})
