"""Human evaluation campaigns over the API (docs/api.md, docs/contracts.md section 9).

``POST /api/tasks/<slug>/campaigns/`` (organizers) creates one; its annotators ask
``next/`` for a screen (204 when done) and post ``judgments/``; the figures
(``GET .../<campaign>/``) are the organizers' until the campaign is published;
``judgments.xml`` and ``judgments.csv`` export its judgments (organizers). Who may do
what is :mod:`leaderboard.access`'s; nothing an annotator receives names a system.
"""

from __future__ import annotations

from typing import NamedTuple

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring

from ... import access
from ...api.errors import messages
from ...api.parsers import BoundedJSONParser
from ...api.serializers import ErrorSerializer
from ...api.views import errors
from ...downloads import campaign_judgments_csv, campaign_judgments_xml, campaign_ratings_csv
from ...models import Campaign, SharedTask
from ...selectors.shared_tasks import task_or_404
from ..insights.campaigns import (
    annotated_campaign,
    campaign_named,
    campaign_summary,
    next_screen,
    summary_for,
    task_campaigns,
)
from ..registry import mode_of
from ..selectors.campaigns import reloaded
from ..services.create import CampaignSettings, create_campaign
from ..services.delete import delete_campaign
from ..services.publish import set_published
from ..services.rating_imports import import_file

CAMPAIGN = OpenApiParameter(
    "campaign", str, OpenApiParameter.PATH, description="the campaign's name", pattern=r"^[a-z0-9][a-z0-9-]{0,59}$"
)


class CampaignCreateSerializer(serializers.Serializer):
    """What a campaign is made of; everything is checked by the service, which names every problem."""

    name = serializers.CharField(max_length=60, help_text="lower-case letters, digits and hyphens; unique in the task")
    phase = serializers.CharField(
        required=False, allow_blank=True, max_length=32, help_text="the phase key (default: the current phase)"
    )
    corpus = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=60,
        help_text="on a phase of several corpora: the corpus whose texts are shown (e.g. cs-geccc)",
    )
    annotators = serializers.ListField(
        child=serializers.CharField(max_length=254),
        max_length=200,
        help_text="usernames or e-mail addresses to invite; each annotates once they accept",
    )
    guidelines = serializers.CharField(
        required=False, allow_blank=True, max_length=20_000, default="", help_text="Markdown shown to annotators"
    )
    practice = serializers.IntegerField(
        required=False, min_value=0, max_value=10, default=0, help_text="practice screens first; they do not count"
    )
    screens_per_annotator = serializers.IntegerField(min_value=1, max_value=10_000)
    outputs_per_screen = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10,
        default=5,
        help_text="1 only in mode rating (a whole essay per screen)",
    )
    redundancy = serializers.IntegerField(
        required=False, min_value=1, max_value=20, default=2, help_text="annotators who judge each screen"
    )
    repeats = serializers.IntegerField(
        required=False, min_value=0, max_value=10_000, default=0, help_text="screens each annotator sees twice"
    )
    controls = serializers.FloatField(
        required=False,
        min_value=0.0,
        max_value=0.5,
        default=0.0,
        help_text="share of each annotator's screens that are control screens",
    )
    threshold = serializers.FloatField(
        required=False,
        min_value=0.0,
        max_value=1.0,
        default=0.05,
        help_text="trusted at a sign-test p-value of at most this",
    )
    mode = serializers.ChoiceField(choices=Campaign.Mode.values, required=False, default=Campaign.Mode.RANKING)
    systems = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=100,
        help_text="submission ids (default: the board's)",
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1, default=0)
    scales = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=5,
        help_text='mode rating: [{"name": "fluency", "min": 1, "max": 4}, ...] (default: one 0-100 slider, "quality"); '
        'a scale may name its points, "labels": {"1": "many errors", "4": "no errors"}, shown on the rating screen',
    )
    builtin = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        max_length=2,
        help_text='mode rating: built-in outputs rated beside the systems, "ORIGINAL" (the input), "REFERENCE"',
    )


class StrictBoolean(serializers.BooleanField):
    """JSON true or false only (DRF's field would take 0, "yes", "on", ...)."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class ServiceChecked(serializers.DictField):
    """An object passed on as sent, its values checked by the service against the screen
    (:func:`..services.judging.check_ranks`), which names the key at fault: a
    child field would take "1" and "1.0" for ranks and make an error object per bad value.
    The child still documents the values in the schema."""

    def to_internal_value(self, data: object) -> dict:
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
            raise AssertionError("unreachable: fail() raises")  # DRF's fail() is untyped, not NoReturn
        return data


class JudgmentSerializer(serializers.Serializer):
    item = serializers.IntegerField(min_value=1, help_text="the item next/ gave")
    ranks = ServiceChecked(
        child=serializers.IntegerField(min_value=1, max_value=100),
        required=False,
        help_text="{output key: rank}, 1 = best, ties allowed (modes ranking and edits)",
    )
    ratings = ServiceChecked(
        child=serializers.DictField(), required=False, help_text="mode rating: {output key: {scale: value}}"
    )
    edits = ServiceChecked(
        child=serializers.ListField(child=StrictBoolean()),
        required=False,
        help_text="mode edits: {output key: [valid?, one per listed edit]}",
    )
    duration = serializers.FloatField(
        required=False, min_value=0, max_value=86_400, help_text="seconds spent on the screen (the XML's duration)"
    )


class PublishSerializer(serializers.Serializer):
    published = StrictBoolean()


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="Appraise's XML: <ranking-item src-id user> holding <translation system rank>; "
        "or, named *.csv, ratings: annotator,item,system,scale,value"
    )
    replace = serializers.BooleanField(
        default=False, help_text="the same file was imported before: replace its judgments (else a 400 says so)"
    )


class ScreenOutputSerializer(serializers.Serializer):
    key = serializers.CharField()
    text = serializers.CharField()
    edits = serializers.ListField(child=serializers.DictField())


class ScreenSerializer(serializers.Serializer):
    item = serializers.IntegerField()
    source = serializers.CharField()
    context = serializers.DictField(child=serializers.CharField(allow_blank=True))
    outputs = ScreenOutputSerializer(many=True)
    mode = serializers.CharField()
    practice = serializers.BooleanField(help_text="a practice screen: its judgment does not count")
    progress = serializers.DictField(child=serializers.IntegerField())
    scales = serializers.ListField(
        child=serializers.DictField(), required=False, help_text='mode rating: [{"name", "min", "max", "labels"?}]'
    )


def problems_of(serializer: serializers.Serializer) -> list[str]:
    """Plain ``field: message`` lines (nested fields dotted), never an error object's repr."""
    return messages(serializer.errors)


def the_task(slug: str) -> SharedTask:
    return task_or_404(slug)


def the_campaign(task: SharedTask, name: str) -> Campaign:
    campaign = campaign_named(task, name)
    if campaign is None:
        raise NotFound(f"task {task.slug} has no campaign {name}")
    return campaign


def annotators_campaign(slug: str, name: str) -> Campaign:
    campaign = annotated_campaign(slug, name)
    if campaign is None:
        task_or_404(slug)
        raise NotFound(f"task {slug} has no campaign {name}")
    return campaign


def refuse(request, message: str):
    raise NotAuthenticated(message) if not request.user.is_authenticated else PermissionDenied(message)


def annotators_only(request, campaign: Campaign) -> None:
    if not access.is_annotator(campaign, request.user):
        raise PermissionDenied(f"only the annotators of campaign {campaign.name} get its screens and judge them")


def validated(serializer_class: type[serializers.Serializer], request) -> dict:
    """The request's body as ``serializer_class`` checks it; a 400 naming every field's problems."""
    body = serializer_class(data=request.data)
    if not body.is_valid():
        raise ValidationError(problems_of(body))
    return body.validated_data


class OrganizersRequest(NamedTuple):
    task: SharedTask
    campaign: Campaign | None
    data: dict


def organizers_request(
    request, slug: str, refusal: str, *, campaign: str = "", body: type[serializers.Serializer] | None = None
) -> OrganizersRequest:
    """What an organizer's request names, in the order its refusals come: 404 for an unknown
    task (or ``campaign``), 401/403 with ``refusal`` (formatted with ``task`` and
    ``campaign``) for anyone but its organizers, 400 for a ``body`` that does not validate."""
    task = the_task(slug)
    found = the_campaign(task, campaign) if campaign else None
    if not access.may_manage_campaign(task, request.user):
        refuse(request, refusal.format(task=task, campaign=found))
    return OrganizersRequest(task, found, validated(body, request) if body else {})


class Campaigns(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(operation_id="tasks_campaigns_list", responses={200: dict})
    def get(self, request, slug):
        """The campaigns this user may know of: all (organizers), else the published ones and those they annotate."""
        task = the_task(slug)
        organizer = access.may_manage_campaign(task, request.user)
        return Response(
            {
                "campaigns": [
                    {
                        "name": c.name,
                        "phase": c.phase.kind,
                        "mode": c.mode,
                        "status": c.status,
                        "published": c.published,
                    }
                    for c in task_campaigns(task, organizer=organizer, user=request.user)
                ]
            }
        )

    @extend_schema(request=CampaignCreateSerializer, responses={201: dict, 400: ErrorSerializer})
    def post(self, request, slug):
        task, _, data = organizers_request(
            request, slug, "campaigns of {task.title} are created by its organizers", body=CampaignCreateSerializer
        )
        site = request.build_absolute_uri("/").rstrip("/")
        campaign = create_campaign(task, request.user, CampaignSettings(**data), site=site)  # 400: CampaignError
        return Response(campaign_summary(reloaded(campaign)), status=201)


class CampaignDetail(APIView):
    @extend_schema(operation_id="tasks_campaigns_retrieve", parameters=[CAMPAIGN], responses={200: dict})
    def get(self, request, slug, campaign):
        """``scoring human``'s JSON, the annotators with their control p-values, the progress."""
        task = the_task(slug)
        found = the_campaign(task, campaign)
        if not access.may_see_campaign_results(found, request.user):
            refuse(request, access.campaign_results_denied(found, request.user))
        return Response(summary_for(found, request.user))  # usernames for the organizers alone

    @extend_schema(
        operation_id="tasks_campaigns_destroy",
        parameters=[CAMPAIGN],
        responses={200: dict},
    )
    def delete(self, request, slug, campaign):
        """Delete the campaign with its screens and judgments (its organizers only)."""
        _, found, _ = organizers_request(
            request, slug, "campaign {campaign.name} is deleted by the organizers of {task.title}", campaign=campaign
        )
        gone = delete_campaign(found)
        return Response({"name": campaign, "deleted": True, **gone})


class NextScreen(APIView):
    @extend_schema(
        parameters=[CAMPAIGN],
        responses={
            200: ScreenSerializer,
            204: OpenApiResponse(description="Every screen of this annotator is judged."),
            409: OpenApiResponse(
                ErrorSerializer, description="The campaign is still being prepared, or its preparation failed."
            ),
        },
    )
    def get(self, request, slug, campaign):
        found = annotators_campaign(slug, campaign)
        annotators_only(request, found)
        if not found.is_ready:
            return Response(
                errors(found.message or f"campaign {found.name} is being prepared; try again in a moment"), status=409
            )
        screen = next_screen(found, request.user)
        if screen is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(screen)


class JudgmentCreate(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        parameters=[CAMPAIGN],
        request=JudgmentSerializer,
        responses={
            201: dict,
            400: ErrorSerializer,
            409: OpenApiResponse(ErrorSerializer, description="This screen was judged already."),
        },
    )
    def post(self, request, slug, campaign):
        found = annotators_campaign(slug, campaign)
        annotators_only(request, found)
        data = validated(JudgmentSerializer, request)
        judgment = mode_of(found).record(found, request.user, data)  # JudgmentError: 400, AlreadyJudged: 409
        return Response({"item": data["item"], "judgment": judgment.pk if judgment else None}, status=201)


class Publish(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(parameters=[CAMPAIGN], request=PublishSerializer, responses={200: dict})
    def post(self, request, slug, campaign):
        """Publish (or withdraw): the human column on the board and exports, the page open to everyone."""
        _, found, data = organizers_request(
            request,
            slug,
            "campaign {campaign.name} is published by the organizers of {task.title}",
            campaign=campaign,
            body=PublishSerializer,
        )
        set_published(found, data["published"])
        return Response({"name": found.name, "published": found.published})


class Import(APIView):
    parser_classes = [MultiPartParser]

    @extend_schema(parameters=[CAMPAIGN], request=ImportSerializer, responses={201: dict, 400: ErrorSerializer})
    def post(self, request, slug, campaign):
        """Judgments in Appraise's XML into this campaign (created on the current phase
        when the task has none of this name); every unknown system is named."""
        task, _, data = organizers_request(
            request, slug, "judgments of {task.title} are imported by its organizers", body=ImportSerializer
        )
        existing = campaign_named(task, campaign)
        phase = existing.phase if existing else task.current_phase()
        if phase is None or phase.is_multi_corpus:
            return Response(errors("judgments are imported into a phase of one corpus"), status=400)
        upload = data["file"]
        try:
            done = import_file(
                phase, campaign, upload.read(), filename=upload.name, user=request.user, replace=data["replace"]
            )
        except scoring.InputError as error:
            return Response({"errors": [p.as_dict() for p in error.problems]}, status=400)
        body = {"name": done.campaign.name, "imported": done.rankings, "left_out": done.left_out}
        return Response({**body, "replaced": done.replaced, "message": done.message()}, status=201)


class Export(APIView):
    """``judgments.xml`` (what the ranking counts, in Appraise's XML) or ``judgments.csv`` (every judgment)."""

    what = "xml"

    @extend_schema(parameters=[CAMPAIGN], responses={(200, "application/xml"): str, (200, "text/csv"): str})
    def get(self, request, slug, campaign):
        _, found, _ = organizers_request(
            request,
            slug,
            "the judgments of campaign {campaign.name} are exported by the organizers of {task.title}",
            campaign=campaign,
        )
        if mode_of(found).rates:
            if self.what == "xml":
                return Response(errors(f"campaign {found.name} rates: its ratings are judgments.csv"), status=400)
            return campaign_ratings_csv(found)
        response: HttpResponse = campaign_judgments_xml(found) if self.what == "xml" else campaign_judgments_csv(found)
        return response


class ExportCsv(Export):
    what = "csv"
