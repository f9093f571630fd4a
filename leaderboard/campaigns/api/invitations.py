"""A campaign's invitations over the API, and an annotator's skip of a broken screen
(docs/api.md). The organizers invite (a list, or a pasted text or CSV), list, move a
dropped annotator's screens and remind those behind; the answers are the same whatever
the addresses are, and a username is shown only once its invitee accepted."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from ...api.parsers import BoundedJSONParser
from ...api.serializers import ErrorSerializer
from ..selectors.invitations import campaign_invitation, invitation_rows, skipped_screens
from ..services.invitations import invite, parse_invitees, reassign, remind
from ..services.judging import skip_screen
from .campaigns import CAMPAIGN, annotators_campaign, annotators_only, organizers_request, validated


class StrictText(serializers.CharField):
    """JSON strings only (DRF's field would take 0 or true as text)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class InviteSerializer(serializers.Serializer):
    invitees = serializers.ListField(
        child=StrictText(max_length=254),
        required=False,
        max_length=200,
        help_text="usernames or e-mail addresses",
    )
    text = StrictText(
        required=False, max_length=1_000_000, help_text="a pasted list or a CSV (a column headed email or username)"
    )


class ReassignSerializer(serializers.Serializer):
    to = serializers.IntegerField(min_value=1, help_text="the invitation that takes the screens")


class SkipSerializer(serializers.Serializer):
    item = serializers.IntegerField(min_value=1, help_text="the item next/ gave")
    comment = StrictText(max_length=2000, help_text="what is wrong with the screen")
    duration = serializers.FloatField(required=False, min_value=0, max_value=86_400, help_text="seconds on the screen")


def site_of(request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


class Invitations(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(parameters=[CAMPAIGN], responses={200: dict})
    def get(self, request, slug, campaign):
        """The invitations (invitee as typed, state, progress; the username once accepted) and skipped screens."""
        _, found, _ = organizers_request(
            request, slug, "the invitations of campaign {campaign.name} are its organizers'", campaign=campaign
        )
        return Response({"invitations": invitation_rows(found), "skipped": skipped_screens(found)})

    @extend_schema(parameters=[CAMPAIGN], request=InviteSerializer, responses={201: dict, 400: ErrorSerializer})
    def post(self, request, slug, campaign):
        """Invite more annotators; the answer is the same for every address, known or not."""
        _, found, data = organizers_request(
            request,
            slug,
            "annotators of campaign {campaign.name} are invited by its organizers",
            campaign=campaign,
            body=InviteSerializer,
        )
        names = list(data.get("invitees", [])) + parse_invitees(data.get("text", ""))
        made = invite(found, names, site=site_of(request))  # 400: InvitationError, naming each problem
        return Response({"invited": made}, status=201)


class Reassign(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(parameters=[CAMPAIGN], request=ReassignSerializer, responses={200: dict, 400: ErrorSerializer})
    def post(self, request, slug, campaign, invitation):
        """Move this (dropped) invitation's open screens to invitation ``to``; it is dropped."""
        _, found, data = organizers_request(
            request,
            slug,
            "screens of campaign {campaign.name} are reassigned by its organizers",
            campaign=campaign,
            body=ReassignSerializer,
        )
        source, target = campaign_invitation(found, invitation), campaign_invitation(found, data["to"])
        if source is None or target is None:
            raise NotFound(f"campaign {found.name} has no invitation {invitation if source is None else data['to']}")
        moved = reassign(found, source, target)  # 400: InvitationError
        return Response({"moved": moved, "from": source.pk, "to": target.pk})


class Remind(APIView):
    @extend_schema(parameters=[CAMPAIGN], request=None, responses={200: dict})
    def post(self, request, slug, campaign):
        """Mail the invitees who have not answered and the annotators with screens left (each at most every 12 h)."""
        _, found, _ = organizers_request(
            request, slug, "annotators of campaign {campaign.name} are reminded by its organizers", campaign=campaign
        )
        return Response({"reminded": remind(found, site=site_of(request))})


class Skip(APIView):
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        parameters=[CAMPAIGN],
        request=SkipSerializer,
        responses={
            201: dict,
            400: ErrorSerializer,
            409: OpenApiResponse(ErrorSerializer, description="This screen was judged or skipped already."),
        },
    )
    def post(self, request, slug, campaign):
        """Skip a broken screen with a comment: it is not judged, and the organizers read why."""
        found = annotators_campaign(slug, campaign)
        annotators_only(request, found)
        data = validated(SkipSerializer, request)
        skip_screen(found, request.user, data["item"], data["comment"], data.get("duration"))  # 400, 409: refusals
        return Response({"item": data["item"], "skipped": True}, status=201)
