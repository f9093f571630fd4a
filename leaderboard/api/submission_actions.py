"""A team's own submission over the API: its status (polled), choose / withdraw / restore
it, and its per-sentence results. The same services and access rules as the pages
(:mod:`leaderboard.views.submissions`); another team's submission is a 404."""

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import access, params
from ..insights import exports
from ..insights.team_submissions import status_of
from ..models import Submission
from ..services.submissions import actions
from ..views.submissions import PER_SENTENCE_FORMATS, per_sentence_download
from .exports import IgnoreFormatSuffix
from .schema import choice_parameter, file_responses, text_parameter
from .serializers import ActionDoneSerializer, ErrorSerializer

ACTIONS = {"choose": actions.choose, "withdraw": actions.withdraw, "restore": actions.restore}


def own_submission(request, pk) -> Submission:
    return access.submission_for(request.user, pk, allowed=access.may_see_upload)


POLLED = ("id", "status", "finished", "progress")


class SubmissionStatus(APIView):
    """``{"id", "status", "finished", "progress"}`` and nothing else: what a page or a client
    polls while scoring runs (a few dozen bytes; the scores are on ``/api/submissions/<id>/``).
    A blind phase's hidden results answer "received", finished, as everywhere."""

    @extend_schema(responses={200: dict})
    def get(self, request, pk):
        state = status_of(own_submission(request, pk), request.user)
        return Response({key: state[key] for key in POLLED})


class SubmissionAction(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        parameters=[OpenApiParameter("action", str, OpenApiParameter.PATH, enum=list(ACTIONS))],
        responses={
            200: ActionDoneSerializer,
            409: OpenApiResponse(ErrorSerializer, description="The phase does not allow this now; the reason."),
        },
    )
    def post(self, request, pk, action):
        submission = own_submission(request, pk)
        if action not in ACTIONS or not access.may_manage_submission(submission, request.user):
            raise Http404("no such action")
        ACTIONS[action](submission)  # 409: actions.ActionRefused, with the reason
        return Response({"id": submission.pk, "action": action, "done": True})


class SubmissionSentences(APIView):
    content_negotiation_class = IgnoreFormatSuffix  # ``format`` is this endpoint's own parameter

    @extend_schema(
        parameters=[
            choice_parameter("format", PER_SENTENCE_FORMATS, "the file's format (default csv)"),
            text_parameter(
                "corpus",
                "an upload to a phase of several corpora: the corpus whose results to give (required there; a "
                "400 lists the upload's corpora)",
                max_length=60,
                pattern=params.SLUG,
            ),
        ],
        responses=file_responses({fmt: exports.FORMATS[fmt] for fmt in PER_SENTENCE_FORMATS}),
    )
    def get(self, request, pk):
        return per_sentence_download(own_submission(request, pk), request.user, request.query_params)
