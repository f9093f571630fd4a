"""A team's own submissions: the list per phase, one submission's page, its downloads and actions.

A submission exists only for its team and the task's organizers (404 for anyone else,
:func:`leaderboard.access.may_see_upload`). The list and the detail page follow a
pending submission (static/leaderboard/live.js): the list watches the team's live
channel (its newest rows) and fetches all its rows in one request when it changes; the
detail page polls the submission's status channel until it is finished (an organizer's
pages: the phase's version and ``/api/submissions/<id>/status/``).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from scoring import label, value_at

from .. import access, params
from ..downloads import as_uploaded, attachment
from ..insights import charts, consequences, exports
from ..insights.cleme2 import CLASS_NAMES, CLASSES, sentence_views
from ..insights.corpora import corpus_columns
from ..insights.loading import chunk_statistics
from ..insights.per_sentence import per_sentence_table
from ..insights.per_type import chosen_table, table_of
from ..insights.scores import headline, score_sheet
from ..insights.team_submissions import status_of, team_submissions
from ..insights.uploads import upload_entry
from ..models import Submission
from ..selectors.shared_tasks import task_or_404
from ..selectors.submissions import corpus_files, on_board, team_history, uploaded_bytes
from ..services.boards import polled
from ..services.data.datasets import load_dataset
from ..services.submissions import actions
from ..services.submissions.intake import team_of
from ..standings import headline_metric
from .confirm import confirmation, confirmed
from .pages import OWN_SHOWN, own_rows, shown_version

SENTENCES_SHOWN = 10


def _mine_context(request, slug) -> dict:
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    team = team_of(request.user, task, create=False)
    rows = team_submissions(phase, team, request.user)
    return {
        "task": task,
        "phase": phase,
        "team": team,
        "rows": rows,
        "pending": any(not r["finished"] for r in rows),
        "choosing": phase.counting == phase.Counting.CHOSEN and phase.is_open(),
        "open": phase.is_open(),
        "show_scores": access.may_see_results(phase, request.user),
        "show_counted": access.may_see_counted(phase, request.user),
    }


def _watched(request, phase, team, rows: list[dict]) -> dict:
    """What the list watches to know its rows changed: the team's channel (its newest rows,
    a file the proxy serves) for a member, the phase's version for an organizer."""
    url, now = polled.own_rows(request.user, phase, team)
    if now:
        return {"watch": url, "since": now.strip()}
    return {
        "watch": reverse("task-version", args=[phase.task.slug]) + f"?phase={phase.kind}",
        "since": live_version(request, phase, rows),
    }


def live_version(request, phase, rows: list[dict] | None = None) -> str:
    """The phase's version as this viewer's live module sees it (:func:`.pages.task_version`),
    so a page starts from the version it shows and asks again only when it changes."""
    visible = access.may_see_results(phase, request.user)
    if visible:
        return shown_version(phase, True, [])
    if rows is None:
        return shown_version(phase, False, own_rows(request, phase.task, phase))
    return shown_version(phase, False, rows[:OWN_SHOWN])


@login_required
def mine(request, slug):
    context = _mine_context(request, slug)
    context.update(_watched(request, context["phase"], context["team"], context["rows"]))
    if context["team"] is not None and context["show_scores"]:
        own = team_history(context["phase"], context["team"])
        macro = (
            {row["id"]: row["entry_scores"] for row in context["rows"] if row.get("entry_scores")}
            if context["phase"].is_multi_corpus
            else None
        )
        context["history"] = charts.score_history(list(own), headline_metric(context["task"]), macro)
    return render(request, "leaderboard/my_submissions.html", context)


@login_required
def mine_rows(request, slug):
    """The polled fragment of :func:`mine`."""
    return render(request, "leaderboard/_my_submissions.html", _mine_context(request, slug))


def _visible_submission(request, slug, pk) -> Submission:
    return access.submission_for(request.user, pk, allowed=access.may_see_upload, phase__task__slug=slug)


def detail(request, slug, pk):
    submission = _visible_submission(request, slug, pk)
    phase, task = submission.phase, submission.phase.task
    context = {
        "task": task,
        "phase": phase,
        "submission": submission,
        "state": status_of(submission, request.user),
        "status_url": polled.status(request.user, submission),
        "manages": access.may_manage_submission(submission, request.user),
        "show_scores": False,
        "counted": access.may_see_counted(phase, request.user) and _counted(submission),
    }
    if phase.is_multi_corpus:  # an upload of corpus files: each has its own page; the upload shows the entry whole
        context["corpus_outputs"] = upload_rows(submission, request.user)
        if access.may_see_scores(submission, request.user) and submission.status == Submission.Status.SCORED:
            entry, ranked_by = upload_entry(submission), headline_metric(task)
            columns = sorted(corpus_columns(phase), key=lambda path: path != ranked_by)  # the headline first
            context.update(
                entry=entry,
                headline=headline(entry["scores"], ranked_by),
                corpus_columns=[(path, label(path)) for path in columns],
            )
            for row in context["corpus_outputs"]:
                scores = entry["corpora"][row["corpus"]]
                row.update(
                    scores=None if scores is None else [value_at(scores, path) for path in columns],
                    came_in=entry["corpus_uploads"][row["corpus"]],
                )
    elif access.may_see_scores(submission, request.user) and submission.status == Submission.Status.SCORED:
        metric, level = chosen_table(task.metric_names(), "", "")
        level = params.choice(request.GET, "cat", table_of(metric).levels, level)
        context.update(
            show_scores=True, level=level, levels=table_of(metric).levels, **score_sheet(submission, level, metric)
        )
        if access.may_see_output(submission, request.user):
            statistics = chunk_statistics(submission)
            if statistics is not None:
                views = sentence_views(
                    load_dataset(phase.dataset_id).sources,
                    statistics,
                    show_references=access.may_see_references(phase, request.user),
                )
                context.update(
                    sentences=views[:SENTENCES_SHOWN],
                    more_sentences=len(views) > SENTENCES_SHOWN,
                    classes=[(c, CLASS_NAMES[c]) for c in CLASSES],
                )
    return render(request, "leaderboard/submission.html", context)


def upload_rows(upload: Submission, user) -> list[dict]:
    """Per corpus of the upload's phase: the upload's own file for it (None if it has
    none) and that file's status as its team may see it."""
    outputs = corpus_files(upload)
    return [
        {
            "corpus": c.corpus,
            "output": outputs.get(c.corpus),
            "state": status_of(outputs[c.corpus], user) if c.corpus in outputs else None,
        }
        for c in upload.phase.corpora()
    ]


def _counted(submission: Submission) -> bool:
    return on_board(submission)


def per_sentence(request, slug, pk):
    return per_sentence_download(_visible_submission(request, slug, pk), request.user, request.GET)


PER_SENTENCE_FORMATS = ("csv", "json")


def per_sentence_download(submission: Submission, user, query) -> HttpResponse:
    """The submission's per-sentence results as ``?format=csv`` (default) or ``json``;
    the page's download and ``GET /api/submissions/<id>/sentences/`` alike."""
    if not access.may_see_scores(submission, user):
        raise PermissionDenied("the results of this phase are not public yet")
    if submission.status != Submission.Status.SCORED:
        raise Http404("this submission has no results")
    fmt = params.choice(query, "format", PER_SENTENCE_FORMATS, "csv")
    if submission.phase.is_multi_corpus:  # an upload of several corpora: one corpus's file at a time
        submission = corpus_output(submission, query)
        if submission.status != Submission.Status.SCORED:
            raise Http404(f"the upload's {submission.phase.corpus} file has no results ({submission.status})")
    table = per_sentence_table(
        submission,
        load_dataset(submission.phase.gold_id),
        show_references=access.may_see_references(submission.phase, user),
    )
    text, content_type = exports.render(table, fmt)
    return attachment(text, content_type, f"{submission.phase.task.slug}-{submission.pk}-per-sentence.{fmt}")


def corpus_output(upload: Submission, query) -> Submission:
    """The upload's output for the corpus ``?corpus=`` names; a 400 naming the corpora
    the upload holds when it names none of them."""
    outputs = corpus_files(upload, with_team=True)
    held = sorted(outputs)
    name = params.text(query, "corpus", max_length=60, pattern=params.SLUG)
    if not name:
        raise params.BadParameter(
            "corpus",
            f"an upload of several corpora has per-sentence results per corpus: name one ({', '.join(held)})",
            held,
        )
    if name not in outputs:
        raise params.BadParameter(
            "corpus", f"upload {upload.pk} has no file for corpus {name!r}; it holds {', '.join(held) or 'none'}", held
        )
    return outputs[name]


def uploaded_file(request, slug, pk):
    """The file as uploaded."""
    submission = _visible_submission(request, slug, pk)
    return as_uploaded(uploaded_bytes(submission), submission.filename)


ACTIONS = {
    "choose": (actions.choose, "Submission {pk} now counts for your team."),
    "withdraw": (actions.withdraw, "Submission {pk} is withdrawn: it is off the board."),
    "restore": (actions.restore, "Submission {pk} is back."),
    "delete": (actions.delete_failed, "Submission {pk} is deleted."),
}
CONFIRMED = {
    "withdraw": ("Withdraw submission {pk}", consequences.withdraw),
    "delete": ("Delete submission {pk}", consequences.delete),
}


@login_required
@require_http_methods(["GET", "POST"])
def act(request, slug, pk, action):
    """Withdrawing and deleting ask first (a GET, or a POST without ``confirmed``, shows
    what will happen); the other actions act on their POST."""
    submission = _visible_submission(request, slug, pk)
    if action not in ACTIONS or not access.may_manage_submission(submission, request.user):
        raise Http404("no such action")
    if request.method == "GET" or action in CONFIRMED and not confirmed(request):
        title, consequence = CONFIRMED.get(action, ("{action} submission {pk}", lambda s: ""))
        return confirmation(
            request,
            submission.phase.task,
            title=title.format(pk=submission.pk, action=action.capitalize()),
            consequence=consequence(submission),
            cancel=f"/tasks/{slug}/submissions/?phase={submission.phase.kind}",
        )
    function, message = ACTIONS[action]
    try:
        function(submission)
    except actions.ActionRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, message.format(pk=submission.pk))
    return redirect(f"/tasks/{slug}/submissions/?phase={submission.phase.kind}")
