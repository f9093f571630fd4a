"""Thin API views: read the request, call one service or read path, answer."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring

from .. import access, params
from ..models.shared_tasks import PhaseNotNamed
from ..refusals import Refusal
from ..selectors.difficulty import chunk_rows, pool_size
from ..selectors.shared_tasks import listed_tasks, task_or_404
from ..services.accounts import tokens
from ..services.hosting.host import set_headline
from ..services.submissions.intake import accept_submission
from ..services.teams.actions import set_team_size
from ..throttling import PasswordThrottle
from .board import leaderboard_response
from .errors import bounded
from .parsers import BoundedFormParser, BoundedJSONParser, BoundedMultiPartParser
from .schema import METRIC, PHASE, number_parameter
from .serializers import (
    BoardSerializer,
    DetailSerializer,
    DifficultySerializer,
    ErrorSerializer,
    SubmissionSerializer,
    TaskSerializer,
    TaskSettingsSerializer,
    UploadSerializer,
)


def errors(*messages: str, line: int = 0) -> dict:
    return {"errors": [{"line": line, "message": m} for m in bounded(messages)]}


def phase_choice(phase) -> dict:
    """One phase an upload may name, as a 400 lists them."""
    return {
        "kind": phase.kind,
        "name": phase.title,
        "results_public": phase.results_public(),
        "results": phase.results_note(),
    }


class TokenLogin(ObtainAuthToken):
    """``POST /api/auth/token/``: username and password give the user's token (a new one
    after a revocation or an expiry), under the login form's limit on password guessing; a
    wrong username or password is a 401, as a wrong token is (DRF answers 400).
    ``DELETE`` with the token itself revokes it."""

    throttle_classes = [PasswordThrottle]
    parser_classes = [BoundedJSONParser, BoundedFormParser, BoundedMultiPartParser]  # ObtainAuthToken's are unbounded

    def perform_authentication(self, request):
        """A log-in reads no credentials but its own: a stale token sent along must not refuse it."""
        if request.method != "POST":
            super().perform_authentication(request)

    @extend_schema(
        responses={
            200: AuthTokenSerializer,
            401: OpenApiResponse(DetailSerializer, description="Wrong username or password."),
        }
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError as error:
            if error.get_codes() == {"non_field_errors": ["authorization"]}:
                raise AuthenticationFailed(error.detail["non_field_errors"][0]) from None
            raise
        return Response({"token": tokens.issue(serializer.validated_data["user"]).key})

    @extend_schema(
        request=None,
        responses={204: None, 401: OpenApiResponse(DetailSerializer, description="No valid token was sent.")},
    )
    def delete(self, request, *args, **kwargs):
        if not isinstance(request.auth, Token):
            raise NotAuthenticated("send the token to revoke: Authorization: Token <key>")
        tokens.revoke(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TaskList(generics.ListAPIView):
    queryset = listed_tasks()
    serializer_class = TaskSerializer
    pagination_class = None


class TaskDetail(generics.RetrieveAPIView):
    """A task still preparing its gold, or without a phase, is a 404 as it is absent from
    the list. Its organizers change its settings with ``PATCH``."""

    queryset = listed_tasks()
    serializer_class = TaskSerializer
    lookup_field = "slug"

    @extend_schema(request=TaskSettingsSerializer, responses={200: TaskSerializer, 400: dict})
    def patch(self, request, slug):
        task = self.get_object()
        if not access.may_organize(task, request.user):
            raise (
                NotAuthenticated()
                if not request.user.is_authenticated
                else PermissionDenied("only the task's organizers change its settings")
            )
        settings = TaskSettingsSerializer(data=request.data, partial=True, context={"task": task})  # what it names
        settings.is_valid(raise_exception=True)
        if "max_team_size" in settings.validated_data:
            set_team_size(task, settings.validated_data["max_team_size"])
        if "headline_metric" in settings.validated_data:
            set_headline(task, settings.validated_data["headline_metric"])
        return Response(TaskSerializer(task).data)


class SubmissionCreate(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser]  # a file cannot come urlencoded

    @extend_schema(
        request=UploadSerializer,
        responses={
            201: SubmissionSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="The file's problems by line, or a missing or malformed field."
            ),
            403: OpenApiResponse(ErrorSerializer, description="The phase is closed, or the team may not submit."),
            413: OpenApiResponse(ErrorSerializer, description="The file is over the phase's size limit."),
            429: OpenApiResponse(
                ErrorSerializer, description="Over the phase's submission limits (per day, in total)."
            ),
        },
    )
    def post(self, request, slug):
        task = task_or_404(slug)
        form = UploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            phase = access.upload_phase(task, form.validated_data.get("phase", ""))
        except PhaseNotNamed as error:
            return Response(errors(str(error)) | {"phases": [phase_choice(p) for p in error.choices]}, status=400)
        upload = form.validated_data["file"]
        try:
            submission = accept_submission(
                phase,
                request.user,
                system_name=form.validated_data["system_name"],
                filename=upload.name,
                content=upload.read(),
                description=form.validated_data["description"],
                track=form.validated_data["track"],
                corpus=form.validated_data["corpus"],
            )
        except scoring.InputError as error:
            return Response({"errors": [p.as_dict() for p in error.problems]}, status=400)
        except Refusal as error:
            return Response(errors(str(error)), status=error.status)
        return Response(SubmissionSerializer(submission).data, status=201)


class SubmissionDetail(APIView):
    @extend_schema(responses=SubmissionSerializer)
    def get(self, request, pk):
        submission = access.submission_for(request.user, pk)
        data = SubmissionSerializer(submission).data
        if not access.may_see_results(submission.phase, request.user):
            data = access.hidden_results(data, blind=submission.phase.blind)
        return Response(data)


class Leaderboard(APIView):
    """The phase's pool ranked by ``metric``; cached per pool version, so polling is cheap.

    Documented as a DRF view (the schema lists it), served by :func:`.board.leaderboard_response`:
    on this endpoint DRF's request wrapping, negotiation and response finalising were
    pure cost.
    """

    def dispatch(self, request, *args, **kwargs):
        if request.method in ("GET", "HEAD"):
            return leaderboard_response(request, kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(
        parameters=[
            METRIC,
            PHASE,
            number_parameter("limit", "a page of at most this many rows (without: every row)", minimum=1, maximum=1000),
            number_parameter("offset", "with limit: the first row of the page (0-based)"),
        ],
        responses={
            200: BoardSerializer,
            304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match."),
        },
    )
    def get(self, request, slug):
        return leaderboard_response(request._request, slug)


class Difficulty(APIView):
    """GoToScorer's gold chunks with n_i and w_i = 1 - n_i / N (organizers; everyone once
    the phase has ended with public results: ``access.may_see_references``)."""

    @extend_schema(
        parameters=[
            PHASE,
            number_parameter("sentence", "only this sentence's chunks (0-based)"),
            number_parameter("limit", "a page of at most this many chunks (without: all)", minimum=1, maximum=10000),
            number_parameter("after", "the page after this chunk position (the last page's next_after)"),
        ],
        responses={200: DifficultySerializer},
    )
    def get(self, request, slug):
        task = task_or_404(slug)
        phase = access.phase_for(request, task)
        if not access.may_see_references(phase, request.user):
            raise PermissionDenied(
                "chunk difficulty is shown to organizers, and to everyone once the phase has ended with public results"
            )
        sentence = params.number(request.query_params, "sentence", default=-1)
        limit = params.number(request.query_params, "limit", default=0, minimum=1, maximum=10000)
        after = params.number(request.query_params, "after", default=-1)
        size = pool_size(phase)
        found = chunk_rows(phase, sentence, after=after, limit=limit + 1 if limit else 0)
        rows = [row | {"weight": 1 - row["n"] / size if size else None} for row in found[: limit or None]]
        body = {"phase": phase.kind, "pool_size": size, "reference": task.gts_ref, "chunks": rows}
        if limit:  # a page: where the next one starts (null: this was the last)
            body["next_after"] = rows[-1]["position"] if len(found) > limit else None
        return Response(body, status=status.HTTP_200_OK)
