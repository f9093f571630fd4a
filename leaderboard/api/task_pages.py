"""The task's pages, terms, phase files and participants' list over the API.

``GET /api/tasks/<slug>/input/?phase=P`` and ``references/``: the phase's files (one
text file, or a zip of several); ``GET /api/tasks/<slug>/pages/`` and, for organizers,
``PUT /api/tasks/<slug>/pages/<name>/``; ``GET`` and ``POST /api/tasks/<slug>/terms/``
(read, accept); ``GET /api/tasks/<slug>/participants/export`` (organizers, CSV).
"""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import access
from ..access import terms_accepted_at
from ..downloads import participants_csv, phase_download
from ..models.pages import TaskPage, current_terms, terms_version
from ..sanitise import MAX_PAGE_CHARS, markdown_html
from ..selectors.shared_tasks import task_or_404
from ..services.hosting.task_pages import save_page, written_pages
from ..services.teams.terms import accept_terms
from .schema import PHASE
from .views import errors


class PhaseFile(APIView):
    """A phase's inputs (``what="input"``) or references: ``text/plain`` for one file,
    ``application/zip`` for several; 403 with the reason otherwise."""

    what = "input"

    @extend_schema(parameters=[PHASE], responses={(200, "text/plain"): str, (200, "application/zip"): bytes})
    def get(self, request, slug):
        task = task_or_404(slug)
        return phase_download(access.phase_for(request, task), request.user, self.what)


class PhaseReferences(PhaseFile):
    what = "references"


class Text(serializers.CharField):
    """A string as sent: DRF's CharField would store the JSON number 0 as the text "0"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class PageSerializer(serializers.Serializer):
    markdown = Text(allow_blank=True, max_length=MAX_PAGE_CHARS, trim_whitespace=False)


class TaskPages(APIView):
    """Every written page as Markdown and as the sanitised HTML the task page shows."""

    @extend_schema(responses={200: dict})
    def get(self, request, slug):
        task = task_or_404(slug)
        return Response(
            {
                "pages": {
                    name: {"markdown": text, "html": markdown_html(text)} for name, text in written_pages(task).items()
                }
            }
        )


class TaskPageEdit(APIView):
    """Organizers write one page (``overview``, ``data``, ``evaluation`` or ``terms``); empty text removes it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("name", str, OpenApiParameter.PATH, enum=TaskPage.Name.values)],
        request=PageSerializer,
        responses={200: dict},
    )
    def put(self, request, slug, name):
        task = task_or_404(slug)
        if not access.may_organize(task, request.user):
            raise PermissionDenied(f"the pages of {task.title} are written by its organizers")
        body = PageSerializer(data=request.data)
        if not body.is_valid():
            return Response(
                errors(*(f"{field}: {' '.join(map(str, msgs))}" for field, msgs in body.errors.items())), status=400
            )
        page = save_page(task, name, body.validated_data["markdown"])  # 400: PageError
        return Response({"name": page.name, "markdown": page.markdown, "html": markdown_html(page.markdown)})


class AcceptSerializer(serializers.Serializer):
    version = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="the version read (GET); refused with 409 if the terms changed since",
    )


class Terms(APIView):
    """``GET``: the terms, their version and when the user accepted them (null: not yet).
    ``POST``: accept them (needed before the first submission)."""

    @extend_schema(responses={200: dict})
    def get(self, request, slug):
        task = task_or_404(slug)
        text = current_terms(task)
        version = terms_version(text)
        return Response(
            {
                "task": task.slug,
                "version": version,
                "markdown": text,
                "accepted_at": terms_accepted_at(request.user, task, version) if version else None,
            }
        )

    @extend_schema(request=AcceptSerializer, responses={200: dict, 409: dict})
    def post(self, request, slug):
        if not request.user.is_authenticated:
            raise PermissionDenied("log in (or send your token) to accept the terms")
        task = task_or_404(slug)
        body = AcceptSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        acceptance = accept_terms(request.user, task, body.validated_data.get("version", ""))  # 409: TermsChanged
        return Response({"task": task.slug, "version": acceptance.version, "accepted_at": acceptance.accepted_at})


class ParticipantsExport(APIView):
    """The participants' list as CSV (organizers)."""

    @extend_schema(responses={(200, "text/csv"): str})
    def get(self, request, slug):
        task = task_or_404(slug)
        if not access.may_export_participants(task, request.user):
            raise PermissionDenied(f"the participants' list of {task.title} is for its organizers only")
        return participants_csv(task)
