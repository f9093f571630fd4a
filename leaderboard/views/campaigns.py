"""Human evaluation pages: the campaigns of a task, an organizer's form, the live campaign
page, and the annotator's judging page.

The judging page is a shell: its script asks the API for the next screen and posts each
judgment (``/api/tasks/<slug>/campaigns/<name>/next/`` and ``judgments/``, session and
CSRF), so the page and the API show exactly the same, blind, screen. The campaign page
shows what the worker last computed; its script fetches the ``#live`` part again every
few seconds while judgments arrive.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

import scoring
from scoring import label

from .. import access
from ..insights.campaigns import campaign_named, campaign_summary, ranked_rows, task_campaigns
from ..models import Campaign, SharedTask
from ..selectors.submissions import scored_systems
from ..selectors.tasks import phases_in_order, task_or_404
from ..services.campaigns.create import CampaignError, CampaignSettings, create_campaign
from ..services.campaigns.imports import import_judgments
from ..services.campaigns.publish import set_published

POLL_SECONDS = 5


class CampaignForm(forms.Form):
    name = forms.SlugField(max_length=60, help_text="lower-case letters, digits and hyphens")
    phase = forms.ChoiceField(choices=[])
    annotators = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="usernames or e-mail addresses of existing accounts, one per line or separated by commas",
    )
    systems = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, help_text="none ticked: the board's systems"
    )
    screens_per_annotator = forms.IntegerField(min_value=1, max_value=10_000, initial=100)
    outputs_per_screen = forms.IntegerField(min_value=2, max_value=10, initial=5)
    redundancy = forms.IntegerField(min_value=1, max_value=20, initial=2, help_text="annotators who judge each screen")
    repeats = forms.IntegerField(
        min_value=0,
        max_value=10_000,
        initial=0,
        help_text="screens each annotator sees twice (intra-annotator agreement)",
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

    def __init__(self, *args, task: SharedTask, **kwargs):
        super().__init__(*args, **kwargs)
        phases = [p for p in phases_in_order(task) if not p.is_multi_corpus]
        self.fields["phase"].choices = [(p.kind, p.title) for p in phases]
        current = task.current_phase()
        self.fields["phase"].initial = current.kind if current else None
        self.fields["systems"].choices = [(str(s.pk), f"#{s.pk} {s.display_name}") for s in scored_systems(phases)]

    def settings(self) -> CampaignSettings:
        data = self.cleaned_data
        names = [n.strip() for n in data["annotators"].replace(",", "\n").splitlines() if n.strip()]
        return CampaignSettings(
            name=data["name"],
            phase=data["phase"],
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
        )


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
    form = CampaignForm(request.POST or None, task=task) if organizer else None
    if request.method == "POST":
        if not organizer:
            raise PermissionDenied(f"campaigns of {task.title} are created by its organizers")
        if form.is_valid():
            try:
                campaign = create_campaign(task, request.user, form.settings())
            except CampaignError as error:
                for problem in error.problems:
                    form.add_error(None, problem)
            else:
                messages.success(
                    request, f"Campaign {campaign.name} is being prepared: its screens are sampled in the worker queue."
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


def campaign_context(request, campaign: Campaign) -> dict:
    summary = campaign_summary(campaign)
    rows = ranked_rows(campaign)
    for previous, row in zip([None, *rows], rows):
        row["new_cluster"] = previous is not None and previous.get("cluster") != row.get("cluster")
    per_annotator = summary["progress"]["annotators"]
    controls = {c["user"]: c for c in summary.get("controls", [])}
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
            }
            for a in summary.get("annotators", [])
        ],
        "correlations": correlation_rows(summary),
        "organizer": access.may_manage_campaign(campaign, request.user),
        "annotating": access.is_annotator(campaign, request.user),
        "poll_seconds": POLL_SECONDS,
    }


def campaign_page(request, slug, name):
    """The live figures (organizers; everyone once published); ``?part=live`` is the polled part."""
    campaign = the_campaign(slug, name)
    if not access.may_see_campaign_results(campaign, request.user):
        if access.is_annotator(campaign, request.user):
            return redirect("campaign-judge", slug=slug, name=name)
        raise PermissionDenied(access.campaign_results_denied(campaign, request.user))
    template = "campaigns/_live.html" if request.GET.get("part") == "live" else "campaigns/campaign.html"
    return render(request, template, campaign_context(request, campaign))


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
def import_file(request, slug, name):
    """Judgments in Appraise's XML into this campaign (the management command's upload)."""
    campaign = managed_campaign(request, slug, name)
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, "Choose an XML file of judgments to import.")
        return redirect("campaign", slug=slug, name=name)
    try:
        _, count = import_judgments(campaign.phase, name, upload.read(), filename=upload.name, user=request.user)
    except scoring.InputError as error:
        context = campaign_context(request, campaign) | {"problems": error.problems}
        return render(request, "campaigns/campaign.html", context, status=400)
    messages.success(request, f"{count} rankings imported; the ranking is being recomputed.")
    return redirect("campaign", slug=slug, name=name)


@login_required
def judge(request, slug, name):
    """The annotator's page: the script fills it from the API, screen by screen."""
    campaign = the_campaign(slug, name)
    if not access.is_annotator(campaign, request.user):
        raise PermissionDenied(f"only the annotators of campaign {name} judge its screens")
    return render(
        request,
        "campaigns/judge.html",
        {
            "task": campaign.task,
            "campaign": campaign,
            "phase": campaign.phase,
            "api": f"/api/tasks/{slug}/campaigns/{name}/",
        },
    )
