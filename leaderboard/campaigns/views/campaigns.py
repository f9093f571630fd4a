"""Human evaluation pages: the campaigns of a task, an organizer's form, the live campaign
page, and the annotator's judging page.

The judging page is a shell: its script asks the API for the next screen and posts each
judgment (``/api/tasks/<slug>/campaigns/<name>/next/`` and ``judgments/``, session and
CSRF), so the page and the API show exactly the same, blind, screen. The campaign page
shows what the worker last computed; it follows the campaign's version through
``static/leaderboard/live.js`` (no loop of its own, none in a hidden tab) and fetches the
``#live`` part again when judgments arrive.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

import scoring
from scoring import label
from scoring.fields.integers import whole_number

from ... import access
from ...models import Campaign, SharedTask
from ...sanitise import markdown_html
from ...selectors.shared_tasks import phases_in_order, task_or_404
from ...selectors.submissions import scored_systems
from ..insights.campaigns import campaign_named, ranked_rows, summary_for, task_campaigns
from ..insights.ratings import rating_rows
from ..registry import mode_of
from ..selectors.campaigns import live_version
from ..selectors.invitations import invitation_rows, pending_for, skipped_screens
from ..services.create import CampaignError, CampaignSettings, create_campaign
from ..services.delete import delete_campaign
from ..services.invitations import parse_invitees
from ..services.publish import set_published
from ..services.rating_imports import import_file as import_any
from ..services.sampling import repeats_help


class CampaignForm(forms.Form):
    name = forms.SlugField(max_length=60, help_text="lower-case letters, digits and hyphens")
    phase = forms.ChoiceField(choices=[])
    annotators = forms.CharField(
        label="Invite annotators",
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="usernames or e-mail addresses, one per line or separated by commas (or a CSV file below); "
        "each gets an invitation by mail and annotates once they accept",
    )
    annotators_file = forms.FileField(
        label="or a CSV of invitees", required=False, help_text="a column headed email or username, or one per line"
    )
    guidelines = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=20_000,
        help_text="Markdown: what the annotators read first, and again on demand",
    )
    practice = forms.IntegerField(
        min_value=0,
        max_value=10,
        initial=0,
        required=False,
        help_text="practice screens first in each queue; they do not count",
    )
    systems = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, help_text="none ticked: the board's systems"
    )
    screens_per_annotator = forms.IntegerField(min_value=1, max_value=10_000, initial=100)
    outputs_per_screen = forms.IntegerField(
        min_value=1, max_value=10, initial=5, help_text="1 (a whole essay per screen) only in mode rating"
    )
    redundancy = forms.IntegerField(min_value=1, max_value=20, initial=2, help_text="annotators who judge each screen")
    repeats = forms.IntegerField(
        min_value=0,
        max_value=10_000,
        initial=0,
        help_text=repeats_help(),
    )
    controls = forms.FloatField(
        min_value=0, max_value=0.5, initial=0.1, help_text="share of each annotator's screens that are control screens"
    )
    threshold = forms.FloatField(
        min_value=0,
        max_value=1,
        initial=0.05,
        help_text="an annotator is trusted at a sign-test p-value of at most this",
    )
    mode = forms.ChoiceField(choices=Campaign.Mode.choices, initial=Campaign.Mode.RANKING)
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=0)
    scales = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "grammaticality 1 4\nfluency 1 4"}),
        help_text="mode rating: one scale a line, NAME MIN MAX, then the points' labels if you like "
        "(1=incomprehensible; 4=no errors); empty: one 0-100 slider",
    )

    def __init__(self, *args, task: SharedTask, **kwargs):
        super().__init__(*args, **kwargs)
        phases = list(phases_in_order(task))
        choices = phase_choices(phases)
        cast(forms.ChoiceField, self.fields["phase"]).choices = choices
        current = task.current_phase()
        kinds = [value for value, _ in choices]
        self.fields["phase"].initial = next((v for v in kinds if current and v.split("/")[0] == current.kind), None)
        cast(forms.ChoiceField, self.fields["systems"]).choices = [
            (str(s.pk), f"#{s.pk} {s.display_name}") for s in scored_systems(phases)
        ]

    def clean(self):
        data = super().clean()
        upload = data.get("annotators_file")
        names = parse_invitees(data.get("annotators") or "")
        if upload is not None:
            if upload.size > 1_000_000:
                self.add_error("annotators_file", "at most 1 MB")
                return data
            names += parse_invitees(upload.read().decode("utf-8", "replace"))  # its own header counts
        data["invitees"] = list(dict.fromkeys(names))
        if not data["invitees"] and not self.has_error("annotators_file"):
            self.add_error("annotators", "invite at least one annotator")
        return data

    def settings(self) -> CampaignSettings:
        data = self.cleaned_data
        names = data["invitees"]
        phase, _, corpus = data["phase"].partition("/")
        return CampaignSettings(
            name=data["name"],
            phase=phase,
            corpus=corpus,
            annotators=names,
            screens_per_annotator=data["screens_per_annotator"],
            outputs_per_screen=data["outputs_per_screen"],
            redundancy=data["redundancy"],
            repeats=data["repeats"],
            controls=data["controls"],
            threshold=data["threshold"],
            mode=data["mode"],
            systems=[int(i) for i in data["systems"]] or None,
            seed=data["seed"],
            scales=scales_of(data.get("scales") or ""),
            guidelines=data["guidelines"],
            practice=data["practice"] or 0,
        )


def phase_choices(phases) -> list[tuple[str, str]]:
    """A phase of one corpus is one choice; a phase of several, one choice a corpus
    (``KIND/CORPUS``): a campaign shows one corpus's texts."""
    choices = []
    for p in phases:
        if p.is_multi_corpus:
            choices += [(f"{p.kind}/{c.corpus}", f"{p.title}: {c.corpus}") for c in p.corpora() if c.corpus]
        else:
            choices.append((p.kind, p.title))
    return choices


def scales_of(text: str) -> list | None:
    """The form's scales, ``NAME MIN MAX`` a line, then optionally the points' labels
    (``grammaticality 1 4 1=incomprehensible; 4=no errors``), as the service takes them (it
    names what is wrong); None for none (one 0-100 slider)."""
    scales: list = []
    for line in text.splitlines():
        parts = line.split(maxsplit=3)
        if not parts:
            continue
        name, *bounds = parts[:3]
        parsed = [whole_number(b, minimum=-(10**9), maximum=10**9) for b in bounds]
        numbers = [b if n is None else n for b, n in zip(bounds, parsed)]  # the service names a bad one
        if len(numbers) != 2:
            scales.append(line.strip())
            continue
        scale: dict = dict(zip(("name", "min", "max"), [name, *numbers]))
        if len(parts) == 4:
            scale["labels"] = labels_of(parts[3])
        scales.append(scale)
    return scales or None


def labels_of(text: str) -> dict | str:
    """``1=incomprehensible; 4=no errors`` as ``{"1": ..., "4": ...}``; the text itself when
    it is not in that shape (the service then names the problem)."""
    pairs = [part.split("=", 1) for part in text.split(";") if part.strip()]
    if not all(len(pair) == 2 for pair in pairs):
        return text
    return {point.strip(): label.strip() for point, label in pairs}


def site_of(request) -> str:
    """This site's address, for the links in mails."""
    return request.build_absolute_uri("/").rstrip("/")


def the_campaign(slug: str, name: str) -> Campaign:
    task = task_or_404(slug)
    campaign = campaign_named(task, name)
    if campaign is None:
        raise Http404(f"task {slug} has no campaign {name}")
    return campaign


def campaigns(request, slug):
    """The task's campaigns this user may know of, and for organizers the form to make one."""
    task = task_or_404(slug)
    organizer = access.may_manage_campaign(task, request.user)
    form = CampaignForm(request.POST or None, request.FILES or None, task=task) if organizer else None
    if request.method == "POST":
        if not organizer:
            raise PermissionDenied(f"campaigns of {task.title} are created by its organizers")
        if form.is_valid():
            try:
                campaign = create_campaign(task, request.user, form.settings(), site=site_of(request))
            except CampaignError as error:
                for problem in error.problems:
                    form.add_error(None, problem)
            else:
                messages.success(
                    request,
                    f"Campaign {campaign.name} is being prepared: its screens are sampled in the worker queue. "
                    f"{len(invitation_rows(campaign))} invitations are sent.",
                )
                return redirect("campaign", slug=task.slug, name=campaign.name)
    listed = task_campaigns(task, organizer=organizer, user=request.user)
    mine = {c.pk for c in listed if access.is_annotator(c, request.user)}
    return render(
        request,
        "campaigns/list.html",
        {
            "task": task,
            "phase": task.current_phase(),
            "campaigns": [(c, c.pk in mine) for c in listed],
            "invited": [i for i in pending_for(request.user) if i.campaign.task_id == task.pk],
            "form": form,
            "organizer": organizer,
        },
        status=400 if form is not None and form.errors else 200,
    )


def correlation_rows(results: dict) -> list[dict]:
    rows = []
    for path, schemes in (results.get("correlations") or {}).items():
        rows.append({"label": label(path), "path": path, "ew": schemes.get("EW"), "ts": schemes.get("TS")})
    return rows


def edit_rows(summary: dict) -> list[dict]:
    """Mode edits: per system, the share of its shown edits marked valid and SEEDA's
    edit-level Expected Wins (:mod:`leaderboard.campaigns.services.edit_marks`), best first."""
    marks = summary.get("edit_marks") or {}
    rows = [{"system": name, **values} for name, values in marks.items()]
    return sorted(rows, key=lambda r: (-(r.get("expected_wins") or 0.0), r["system"]))


def campaign_context(request, campaign: Campaign) -> dict:
    summary = summary_for(campaign, request.user)
    rows = ranked_rows(campaign)
    for previous, row in zip([None, *rows], rows):
        row["new_cluster"] = previous is not None and previous.get("cluster") != row.get("cluster")
    per_annotator = summary["progress"]["annotators"]
    controls = {c["user"]: c for c in summary.get("controls", [])}
    organizer = access.may_manage_campaign(campaign, request.user)
    mode = mode_of(campaign)
    rating = rating_context(campaign, summary) if mode.rates else {}
    consistency = rating.pop("consistency", {})
    return {
        "task": campaign.task,
        "phase": campaign.phase,
        "campaign": campaign,
        "summary": summary,
        "rows": rows,
        "annotators": [
            {
                **a,
                "progress": per_annotator.get(a["user"], {"done": a["screens"], "total": a["screens"]}),
                "outcomes": controls.get(a["user"]),
                "consistency": consistency.get(a["user"], []),
            }
            for a in summary.get("annotators", [])
        ],
        "correlations": correlation_rows(summary),
        "organizer": organizer,
        "annotating": access.is_annotator(campaign, request.user),
        "invitations": invitation_rows(campaign) if organizer else [],
        "skipped": skipped_screens(campaign, limit=50) if organizer else [],
        "edit_marks": edit_rows(summary),
        "version": live_version(campaign),
        "mode": mode,
        **rating,
    }


def rating_context(campaign: Campaign, summary: dict) -> dict:
    """A rating campaign's table rows and per-scale correlations, and its own live part."""
    scales = [s["name"] for s in campaign.scales]
    correlations = [
        {"label": label(path), "path": path, "scales": [schemes.get(s) for s in scales]}
        for path, schemes in (summary.get("correlations") or {}).items()
    ]
    agreement = summary.get("agreement") or {}
    by_annotator = agreement.get("intra_alpha_by_annotator") or {}  # absent before the worker computed it
    return {
        "consistency_scales": scales if by_annotator else [],
        "consistency": {
            a["user"]: [by_annotator.get(s, {}).get(a["user"]) for s in scales]
            for a in (summary.get("annotators", []) if by_annotator else [])
        },
        "live_template": "campaigns/_live_rating.html",
        "rating_rows": rating_rows(campaign),
        "scale_names": scales,
        "alphas": [(s, agreement.get("alpha", {}).get(s), agreement.get("intra_alpha", {}).get(s)) for s in scales],
        "correlations": correlations,
    }


def campaign_page(request, slug, name):
    """The live figures (organizers; everyone once published). The page follows
    ``?part=version`` (a few bytes) through ``static/leaderboard/live.js`` and fetches
    ``?part=live``, the figures, only when it changed."""
    campaign = the_campaign(slug, name)
    if not access.may_see_campaign_results(campaign, request.user):
        if access.is_annotator(campaign, request.user):
            return redirect("campaign-judge", slug=slug, name=name)
        raise PermissionDenied(access.campaign_results_denied(campaign, request.user))
    if request.GET.get("part") == "version":
        response = HttpResponse(live_version(campaign), content_type="text/plain; charset=utf-8")
        response["Cache-Control"] = "no-store"
        return response
    context = campaign_context(request, campaign)
    live = context.get("live_template", "campaigns/_live.html")
    return render(request, live if request.GET.get("part") == "live" else "campaigns/campaign.html", context)


def managed_campaign(request, slug, name) -> Campaign:
    campaign = the_campaign(slug, name)
    if not access.may_manage_campaign(campaign, request.user):
        raise PermissionDenied(f"campaign {name} is managed by the organizers of {campaign.task.title}")
    return campaign


@login_required
@require_POST
def publish(request, slug, name):
    campaign = managed_campaign(request, slug, name)
    published = request.POST.get("published") == "1"
    set_published(campaign, published)
    messages.success(
        request,
        f"Campaign {name} is "
        + (
            "published: its ranking is on the board, its page open to everyone."
            if published
            else "no longer published."
        ),
    )
    return redirect("campaign", slug=slug, name=name)


@login_required
@require_POST
def delete(request, slug, name):
    """Delete the campaign, once the organizer has ticked that they mean it."""
    campaign = managed_campaign(request, slug, name)
    if request.POST.get("confirm") != "on":
        messages.error(request, f"Tick the box to confirm that campaign {name} and its judgments are to be deleted.")
        return redirect("campaign", slug=slug, name=name)
    gone = delete_campaign(campaign)
    messages.success(request, f"Campaign {name} is deleted, with its {gone['judgments']} judgments.")
    return redirect("campaigns", slug=slug)


@login_required
@require_POST
def import_file(request, slug, name):
    """Judgments in Appraise's XML, or ratings as CSV, into this campaign (the management command's upload)."""
    campaign = managed_campaign(request, slug, name)
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, "Choose an XML file of judgments to import.")
        return redirect("campaign", slug=slug, name=name)
    try:
        done = import_any(
            campaign.phase,
            name,
            upload.read(),
            filename=upload.name,
            user=request.user,
            replace=request.POST.get("replace") == "on",
        )
    except scoring.InputError as error:
        context = campaign_context(request, campaign) | {"problems": error.problems}
        return render(request, "campaigns/campaign.html", context, status=400)
    messages.success(request, f"{done.message()}; the figures are being recomputed.")
    return redirect("campaign", slug=slug, name=name)


@login_required
def judge(request, slug, name):
    """The annotator's page: the script fills it from the API, screen by screen."""
    campaign = the_campaign(slug, name)
    if not access.is_annotator(campaign, request.user):
        raise PermissionDenied(f"only the annotators of campaign {name} judge its screens")
    mode = mode_of(campaign)
    return render(
        request,
        mode.template,
        {
            "mode": mode,
            "task": campaign.task,
            "campaign": campaign,
            "phase": campaign.phase,
            "api": f"/api/tasks/{slug}/campaigns/{name}/",
            "guidelines": markdown_html(campaign.guidelines) if campaign.guidelines.strip() else "",
        },
    )
