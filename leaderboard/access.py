"""Who may see what: the one place that decides it, for every page, fragment, endpoint and export.

Hidden references and other teams' outputs stay with the organizers, in every state of
a phase (upcoming, open, frozen, ended, revealed):

* a phase's results (scores, ranks, per-type tables, pool versions, counts of any kind):
  organizers, and everyone once the results are public (``Phase.results_public``:
  public visibility, revealed, or after the end when the visibility says so);
* reference chunks and their difficulty (they show the hidden references, and their
  per-chunk counts ``n`` are other teams' outcomes): organizers, and everyone once the
  phase has ended for good *and* its results are public; a frozen phase can reopen;
* a submission (that it exists, its file name, description, error): organizers, its own
  team, and everyone for the systems on a board they may see; anyone else gets the
  same 404 as for an id that does not exist;
* a submission's chunk-by-chunk view (it shows the system's output): organizers, and
  the submitting team once the phase's results are visible to it;
* the uploaded file and the participants' pages about it: its team and organizers; a
  blind phase tells its team only that the file was received, not even when scoring ends;
* a phase's inputs (its source sentences): organizers, and signed-in participants once
  the phase has opened, when their team is approved (or, under open registration, before
  they have a team);
* a phase's references as files: organizers; participants as the inputs when the
  organizers publish them, and never those of a test phase (``Phase.is_test``), whatever
  the phase's flag says;
* the task's pages (Overview, Data, Evaluation, Terms): everyone; the participants' list
  (e-mail addresses, terms accepted, approval): organizers.
* the meta-evaluation: organizers, and everyone once every phase has ended with public
  results; a human evaluation campaign counts in it for everyone only once published
  (:func:`meta_evaluation_audience`).

Views ask here and never decide themselves; :func:`phase_for` and :func:`submission_for`
turn a request's parameters into objects the user may know exist, or a 404.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Permission
from django.db.models import BooleanField, Case, Exists, OuterRef, Q, QuerySet, Value, When
from django.http import Http404
from django.utils import timezone

from . import params
from .models import Dataset, Membership, Phase, SharedTask, Submission, Team, TermsAcceptance
from .models.pages import current_terms, terms_version
from .models.shared_tasks import light_dataset
from .request_answers import remember, remembered


def own_team(user, task: SharedTask) -> Team | None:
    """The user's team in ``task``; None for a visitor or a user in no team of it."""
    if not user.is_authenticated:
        return None
    return remembered(("team", task.pk, user.pk), lambda: _membership_team(user, task))


def _membership_team(user, task: SharedTask) -> Team | None:
    """The user's team, read with every membership of it: who is in it is remembered for
    the request too (a member's page names its team's channel by them)."""
    users_team = Membership.objects.filter(user=user, task=task).values("team_id")
    memberships = list(Membership.objects.select_related("team").filter(team_id__in=users_team))
    if not memberships:
        return None
    team = memberships[0].team
    remember(("team members", team.pk), sorted(m.user_id for m in memberships))
    return team


def team_member_ids(team_id: int | None) -> list[int]:
    """Who is in the team (user ids, sorted); empty for none."""
    if team_id is None:
        return []
    return remembered(("team members", team_id), lambda: _member_ids(team_id))


def _member_ids(team_id: int) -> list[int]:
    return sorted(Membership.objects.filter(team_id=team_id).values_list("user_id", flat=True))


def terms_accepted_at(user, task: SharedTask, version: str):
    """When ``user`` accepted ``version`` of the task's terms; None if they have not."""
    if not user.is_authenticated:
        return None
    return (
        TermsAcceptance.objects.filter(task=task, user=user, version=version)
        .values_list("accepted_at", flat=True)
        .first()
    )


def how_to_accept(task: SharedTask) -> str:
    return (
        f"accept the terms of {task.title} first: on its Terms tab (/tasks/{task.slug}/pages/terms/), "
        f"with `gec-submit accept-terms {task.slug}`, or POST /api/tasks/{task.slug}/terms/"
    )


def terms_pending(user, task: SharedTask) -> str:
    """Why ``user`` may not submit yet for want of accepted terms; empty when they may."""
    version = terms_version(current_terms(task))
    if not version or terms_accepted_at(user, task, version):
        return ""
    earlier = user.is_authenticated and TermsAcceptance.objects.filter(task=task, user=user).exists()
    return (
        ("The terms changed since you accepted them: " if earlier else "You have not accepted the terms yet: ")
        + how_to_accept(task)
        + "."
    )


def may_organize(task: SharedTask, user) -> bool:
    """Organizer tools and the overview-paper exports: the task's organizers and staff
    (asked once per read request: every navigation tag asks it)."""
    if not user.is_authenticated:
        return False
    return remembered(("organize", task.pk, user.pk), lambda: _organizes(task, user))


def _organizes(task: SharedTask, user) -> bool:
    """``task.is_organizer(user)``; the user's hosting grant (:func:`may_host`) is read in
    the same query and remembered, as the navigation asks both."""
    if user.is_staff:
        return True
    organizers = SharedTask.organizers.through.objects.filter(sharedtask_id=OuterRef("pk"), user_id=user.pk)
    answers = (
        SharedTask.objects.filter(pk=task.pk)
        .annotate(organizes=Exists(organizers), granted=Exists(_host_grants(user)))
        .values_list("organizes", "granted")
        .first()
    )
    organizes, granted = answers or (False, False)
    remember(("host grant", user.pk), granted)
    return organizes


def may_see_results(phase: Phase, user) -> bool:
    """``results_public`` first: a public phase never loads the user (the polled API)."""
    return phase.results_public() or may_organize(phase.task, user)


def may_see_references(phase: Phase, user) -> bool:
    return may_organize(phase.task, user) or (phase.has_ended() and phase.results_public())


def visible_submissions(phase: Phase, user) -> QuerySet[Submission]:
    """The phase's submissions this user may know exist."""
    submissions = Submission.objects.filter(phase=phase)
    if may_organize(phase.task, user):
        return submissions
    team = own_team(user, phase.task)
    known = Q(team=team) if team else Q(pk__in=[])
    if may_see_results(phase, user):
        known |= Submission.on_board() & Q(hidden=False)
    return submissions.filter(known)


def may_see_submission(submission: Submission, user) -> bool:
    return visible_submissions(submission.phase, user).filter(pk=submission.pk).exists()


def visible_outputs(phase: Phase, user) -> QuerySet[Submission]:
    """The phase's submissions whose outputs this user may see, chunk by chunk."""
    submissions = Submission.objects.filter(phase=phase)
    if may_organize(phase.task, user):
        return submissions
    team = own_team(user, phase.task)
    return submissions.filter(team=team) if team and may_see_results(phase, user) else submissions.none()


def may_see_output(submission: Submission, user) -> bool:
    return visible_outputs(submission.phase, user).filter(pk=submission.pk).exists()


def task_phase(task: SharedTask, kind: str) -> Phase:
    """The task's phase ``kind`` (a validated key), else its current phase; 404 if none.
    Phases are public: the task's API lists them. A corpus of a multi-corpus phase is
    asked for by its own key (``test--uk-ua-gec``): its board, heat map and per-type pages."""
    phase = (
        Phase.every.select_related("dataset", "task")
        .defer(*light_dataset("dataset__"))
        .filter(task=task, kind=kind)
        .first()
        if kind
        else task.current_phase()
    )
    if phase is None:
        raise Http404(f"task {task.slug} has no phase {kind}".strip())
    return phase


def upload_phase(task: SharedTask, kind: str) -> Phase:
    """The phase an upload goes to: ``kind`` when named, else the one open phase with
    public results; raises :class:`~leaderboard.models.shared_tasks.PhaseNotNamed` when the
    upload must name one (never a hidden phase by default)."""
    if kind:
        return task_phase(task, kind)
    phase = task.phase_to_submit()
    if phase is None:
        raise Http404(f"task {task.slug} has no phase")
    return phase


def phase_for(request, task: SharedTask) -> Phase:
    """The phase ``?phase=`` names: 400 for a malformed key, 404 for an unknown one."""
    return task_phase(task, params.phase_key(request.GET))


def submission_for(user, pk: int, *, allowed=None, **lookups) -> Submission:
    """The submission ``pk`` when this user may know it exists (``allowed``, by default
    :func:`may_see_submission`); the same 404 otherwise, whether it exists or not, so ids
    of hidden phases and other teams' uploads stay unknown."""
    submissions = Submission.objects.select_related("phase__task", "phase__dataset", "team").defer(
        "content", *light_dataset("phase__dataset__")
    )
    submission = submissions.filter(pk=pk, **lookups).first()
    if submission is None or not (allowed or may_see_submission)(submission, user):
        raise Http404("no such submission")
    return submission


def hidden_results(submission_data: dict, *, blind: bool) -> dict:
    """A team's own submission while the phase's results are hidden: no scores; in a
    blind phase not even whether scoring worked, only that the file was received."""
    data = {**submission_data, "scores": {}, "signature": ""}
    data.update(
        {key: {} for key in ("corpora", "corpus_uploads") if key in data}
    )  # an upload of several corpora: its entry
    if blind:
        data.update(status="received", progress=None, error="", scored_at=None, started_at=None)
    return data


# -- hosting and organizer pages ---------------------------------------------------------


def may_host(user) -> bool:
    """Create tasks: staff, and users granted ``leaderboard.host_tasks`` (``manage.py grant_host``),
    as ``user.has_perm`` answers under Django's ModelBackend (an active superuser holds every
    permission, an inactive user none), in one query where ``has_perm`` makes two (none
    when :func:`may_organize` read it already)."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return user.is_active and (
        user.is_superuser or remembered(("host grant", user.pk), lambda: _host_grants(user).exists())
    )


def _host_grants(user) -> QuerySet:
    """``leaderboard.host_tasks`` given to the user or to one of their groups."""
    granted = Permission.objects.filter(codename="host_tasks", content_type__app_label="leaderboard")
    return granted.filter(Q(user=user) | Q(group__user=user))


def gold_ready(phase) -> bool:
    """Every corpus of the phase has its gold prepared (as read with the phase, when it
    was read :func:`with_gold_state`)."""
    known = getattr(phase, "gold_prepared", None)
    if known is not None:
        return known
    datasets = [c.dataset_id for c in phase.corpora()]
    return Dataset.objects.filter(pk__in=datasets).exclude(prepared=b"").count() == len(datasets)


def with_gold_state(phases: QuerySet) -> QuerySet:
    """``phases`` with :func:`gold_ready`'s answer read in the same query (a page that
    reads a task's phases asks it of the current one): a phase with a dataset is ready
    when it is prepared; one without, when it has corpora and each has a prepared one."""
    corpora = Phase.every.filter(parent=OuterRef("pk"))
    unprepared = corpora.filter(Q(dataset__isnull=True) | Q(dataset__prepared=b""))
    own = Dataset.objects.filter(pk=OuterRef("dataset_id")).exclude(prepared=b"")
    return phases.annotate(
        gold_prepared=Case(
            When(dataset__isnull=False, then=Exists(own)),
            When(Exists(corpora), then=~Exists(unprepared)),
            default=Value(False),
            output_field=BooleanField(),
        )
    )


def when(moment, phase=None) -> str:
    """A date in UTC, and in the phase's own time zone when that differs."""
    text = f"{moment:%Y-%m-%d %H:%M} UTC"
    if phase is not None and phase.time_zone not in ("", "UTC"):
        text += f" ({moment.astimezone(ZoneInfo(phase.time_zone)):%Y-%m-%d %H:%M} {phase.time_zone})"
    return text


def phase_title(phase) -> str:
    """The phase as participants know it: a corpus of a phase of several corpora is named
    by its corpus and the phase it belongs to (its dates and visibility are that phase's)."""
    if phase.parent_id:
        return f"{phase.parent.title} phase ({phase.corpus} corpus)"
    return f"{phase.title} phase"


def until_references_public(phase) -> str:
    """As :func:`may_see_references`: the phase has ended and its results are public."""
    ends = f"ends on {when(phase.ends_at, phase)}" if phase.ends_at else "ends (no end date is set yet)"
    hidden = phase.results_visibility == phase.Visibility.ORGANIZERS and not phase.revealed
    named = phase.parent if phase.parent_id else phase
    return f"until the {named.title} phase {ends}" + (" and its results are revealed" if hidden else "")


def references_denied(phase, page: str = "The difficulty map") -> str:
    """The 403 message of a page that shows the hidden references."""
    page = f"{page} of the {phase.corpus} corpus" if phase.parent_id else page
    return f"{page} shows the hidden references: organizers only {until_references_public(phase)}."


def results_denied(phase) -> str:
    """The 403 message of a page that shows a phase's scores while they are hidden."""
    if phase.results_visibility == phase.Visibility.AFTER_END:
        until = f"until the phase ends on {when(phase.ends_at, phase)}" if phase.ends_at else "until the phase ends"
    else:
        until = "until the organizers reveal them"
    return f"The results of the {phase_title(phase)} are hidden: organizers only {until}."


def upload_closed_reason(phase, user) -> str:
    """Why this user may not upload to ``phase`` now; empty when they may (the upload
    form is then offered, else shown disabled with this reason)."""
    state = phase.state()
    if state == "upcoming":
        return f"The {phase.title} phase opens on {when(phase.starts_at, phase)}."
    if state == "frozen":
        return f"The organizers have frozen the {phase.title} phase: no submissions until they unfreeze it."
    if state == "ended":
        return f"The {phase.title} phase ended on {when(phase.ends_at, phase)}."
    if not gold_ready(phase):
        return f"The gold of the {phase.title} phase is still being prepared; uploads open when it is ready."
    if not user.is_authenticated:
        return "Log in to upload."
    team = own_team(user, phase.task)
    refused = team_refusal(phase.task, team, "submit") or terms_pending(user, phase.task)
    if refused:
        return refused
    if team is None:
        return ""
    remaining = remaining_submissions(phase, team)
    if remaining["total"] == 0:
        return f"Your team has used all {phase.max_total} submissions of this phase."
    if remaining["per_day"] == 0:
        return f"Your team has used its {phase.max_per_day} submissions for today; more after midnight UTC."
    return ""


def remaining_submissions(phase: Phase, team: Team | None) -> dict:
    """``{"per_day": n, "total": n}`` a team may still upload (None = no limit).

    A submission that failed through the platform's fault does not count; one whose file
    caused it (bad lines, over its time budget or memory, or one that stopped its
    workers: ``failure_cause="input"``) does, so a costly file cannot be sent again and
    again."""
    counted = Submission.objects.filter(phase=phase, team=team).exclude(
        status=Submission.Status.FAILED,
        failure_cause__in=[Submission.FailureCause.PLATFORM, Submission.FailureCause.NONE],
    )
    midnight = timezone.now().astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return {
        "per_day": None
        if phase.max_per_day is None
        else max(phase.max_per_day - counted.filter(created_at__gte=midnight).count(), 0),
        "total": None if phase.max_total is None else max(phase.max_total - counted.count(), 0),
    }


def team_refusal(task: SharedTask, team, doing: str) -> str:
    """Why a user whose team is ``team`` (None: no team yet) may not ``doing`` under the
    task's registration setting; empty when the team allows it."""
    if team is None:
        refusals: dict[str, str] = {
            task.Signup.CLOSED: f"Registration for {task.title} is closed; ask a registered team for its invite link.",
            task.Signup.APPROVAL: (
                f"Register your team first (Team page): it needs the organizers' approval before it may {doing}."
            ),
        }
        return refusals.get(task.signup, "")
    if not team.approved:
        return f"Your team {team.name} waits for the organizers' approval before it may {doing}."
    return ""


def inputs_closed_reason(phase: Phase, user) -> str:
    """Why this user may not download the phase's inputs; empty when they may."""
    if may_organize(phase.task, user):
        return ""
    if not user.is_authenticated:
        return "Log in to download the inputs."
    if phase.state() == "upcoming":
        return f"The inputs of the {phase.title} phase are published when it opens on {when(phase.starts_at, phase)}."
    return team_refusal(phase.task, own_team(user, phase.task), "download the inputs")


def references_closed_reason(phase: Phase, user) -> str:
    """Why this user may not download the phase's references; empty when they may."""
    if may_organize(phase.task, user):
        return ""
    if phase.is_test:
        return f"The references of the {phase.title} phase are hidden: a test phase's references are never published."
    if not phase.references_public:
        return f"The organizers have not published the references of the {phase.title} phase."
    return inputs_closed_reason(phase, user)


def may_export_participants(task: SharedTask, user) -> bool:
    """The participants' list (e-mail addresses, approval, terms): organizers only."""
    return may_organize(task, user)


# -- a team's own uploads (the participants' pages) ---------------------------------------
# The uploaded file, its listing and its detail page exist only for its team and the
# task's organizers: anyone else gets a 404 there.


def is_own(submission: Submission, user) -> bool:
    """Submitted by a team the user is in."""
    return user.is_authenticated and Membership.objects.filter(user=user, team_id=submission.team_id).exists()


def may_see_upload(submission: Submission, user) -> bool:
    """Its listing, status, file and detail page: its team and the task's organizers."""
    return is_own(submission, user) or may_organize(submission.phase.task, user)


def may_manage_submission(submission: Submission, user) -> bool:
    """Choose, withdraw, restore or delete it: its team only (organizers have the admin)."""
    return is_own(submission, user)


def may_see_scores(submission: Submission, user) -> bool:
    """Its scores, per-type table, per-sentence results: as the phase's results."""
    return may_see_upload(submission, user) and may_see_results(submission.phase, user)


def may_see_counted(phase: Phase, user) -> bool:
    """Which submission counts (it is in the pool), while the results are hidden: not under
    "best" (it would tell which submission scored higher), nor in a blind phase (it would
    tell whether and when scoring ended; the team sees its own choice instead)."""
    return may_see_results(phase, user) or (phase.counting != phase.Counting.BEST and not phase.blind)


def shown_status(submission: Submission, user) -> str:
    """While a blind phase's results are hidden, its team learns only "received"."""
    if submission.phase.blind and not may_see_results(submission.phase, user):
        return "received"
    return submission.status


def may_see_meta_evaluation(task: SharedTask, user) -> bool:
    """How metrics agree with the task's human judgments (it ranks the judged systems):
    organizers; everyone once every phase of the task has ended with public results."""
    phases = list(task.phases.all())
    return may_organize(task, user) or (bool(phases) and all(p.has_ended() and p.results_public() for p in phases))


ORGANIZERS, PUBLIC = "organizers", "public"


def meta_evaluation_audience(task: SharedTask, user) -> str:
    """Which campaigns a meta-evaluation counts as human schemes: every campaign of the
    phase with a ranking for the organizers (``ORGANIZERS``), the published ones for
    everyone else (``PUBLIC``): an unpublished campaign's name, systems and figures are
    the organizers' (as on its own page), and a phase judged only by such campaigns has no
    meta-evaluation for anyone else."""
    return ORGANIZERS if may_organize(task, user) else PUBLIC


# -- human evaluation campaigns ------------------------------------------------------------
# Annotators see screens (a source sentence, its context, shuffled outputs and their edits)
# and never a system, team, submission, score or reference: what reaches them is
# ``Screen.shown_outputs``. The figures (ranking, agreement, controls, correlations) are
# the organizers' until the campaign is published, then everyone's who may see its phase's results.


def is_annotator(campaign, user) -> bool:
    """One of the campaign's annotators: they alone get screens and may judge them."""
    return user.is_authenticated and campaign.annotators.filter(pk=user.pk).exists()


def may_manage_campaign(campaign_or_task, user) -> bool:
    """Create, publish, import into and export a campaign: the task's organizers."""
    task = getattr(campaign_or_task, "task", campaign_or_task)
    return may_organize(task, user)


def may_see_campaign_results(campaign, user) -> bool:
    """The ranking, agreement, controls and correlations: organizers; everyone once
    published, while its phase's results are public (it ranks the phase's systems, as the
    board's human column does, so it keeps the phase's secrecy)."""
    return (campaign.published and campaign.phase.results_public()) or may_organize(campaign.task, user)


def may_see_annotators(campaign, user) -> bool:
    """Who annotated, with their progress and control outcomes: the organizers alone; anyone
    else who may see the results gets counts (docs/security.md)."""
    return may_organize(campaign.task, user)


def campaign_results_denied(campaign, user) -> str:
    if campaign.published:
        return (
            f"the results of campaign {campaign.name} are published with the results of its phase, "
            f"{campaign.phase.title}, which are not public yet"
        )
    if is_annotator(campaign, user):
        return f"the results of campaign {campaign.name} are shown to its annotators once the organizers publish it"
    return f"the results of campaign {campaign.name} are the organizers' until they publish it"
