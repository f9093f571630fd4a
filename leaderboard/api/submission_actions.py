"""A team's own submission over the API: choose / withdraw / restore it, and its
per-sentence results. The same services and access rules as the pages
(:mod:`leaderboard.views.submissions`); another team's submission is a 404."""
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import access
from ..insights import exports
from ..insights.per_sentence import per_sentence_table
from ..models import Submission
from ..services import submissions as actions
from .exports import IgnoreFormatSuffix
from .serializers import ErrorSerializer

ACTIONS = {"choose": actions.choose, "withdraw": actions.withdraw, "restore": actions.restore}
FORMATS = ("csv", "json")


def own_submission(request, pk) -> Submission:
    submission = get_object_or_404(Submission.objects.select_related("phase__task", "team").defer("content"), pk=pk)
    if not access.sees_submission(submission, request.user):
        raise Http404("no such submission")
    return submission


class SubmissionAction(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: dict, 409: ErrorSerializer})
    def post(self, request, pk, action):
        submission = own_submission(request, pk)
        if action not in ACTIONS or not access.manages_submission(submission, request.user):
            raise Http404("no such action")
        try:
            ACTIONS[action](submission)
        except actions.ActionRefused as error:
            return Response({"errors": [{"line": 0, "message": str(error)}]}, status=409)
        return Response({"id": submission.pk, "action": action, "done": True})


class SubmissionSentences(APIView):
    content_negotiation_class = IgnoreFormatSuffix  # ``format`` is this endpoint's own parameter

    @extend_schema(parameters=[OpenApiParameter("format", str, enum=list(FORMATS))], responses={(200, "text/csv"): str, (200, "application/json"): dict})
    def get(self, request, pk):
        submission = own_submission(request, pk)
        if not access.sees_scores(submission, request.user):
            raise PermissionDenied("the results of this phase are not public yet")
        if submission.status != Submission.Status.SCORED:
            raise Http404("this submission has no results")
        fmt = request.query_params.get("format", "csv")
        if fmt not in FORMATS:
            raise ValidationError({"format": f"one of {', '.join(FORMATS)}"})
        text, content_type = exports.render(per_sentence_table(submission), fmt)
        response = HttpResponse(text, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{submission.phase.task.slug}-{submission.pk}-per-sentence.{fmt}"'
        return response
