"""``GET /api/me/submissions/``: the caller's own teams' submissions, for scripts and
``gec-submit list``. Only what the team may see of its own uploads (access.py)."""

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import access, params
from ..models import Submission
from ..selectors.submissions import uploads_of
from .schema import text_parameter
from .serializers import ShownSubmissionSerializer


class MySubmissionSerializer(ShownSubmissionSerializer):
    counts = serializers.SerializerMethodField(
        help_text="on the board and in the pool now; null while the phase does not say"
    )

    class Meta:
        model = Submission
        fields = [
            "id",
            "task",
            "phase",
            "team",
            "system_name",
            "description",
            "track",
            "filename",
            "size",
            "status",
            "progress",
            "error",
            "counts",
            "created_at",
            "scored_at",
        ]

    def get_counts(self, submission) -> bool | None:
        return submission.counted


class MySubmissionListSerializer(serializers.Serializer):
    submissions = MySubmissionSerializer(many=True, help_text="newest first, at most 1,000")


class MySubmissions(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            text_parameter("task", "only this task's (a slug)", max_length=50, pattern=params.SLUG),
            text_parameter("phase", "only this phase key's, e.g. test", max_length=32, pattern=params.SLUG),
        ],
        responses={200: MySubmissionListSerializer},
    )
    def get(self, request):
        task = params.text(request.query_params, "task", max_length=50, pattern=params.SLUG)
        phase = params.phase_key(request.query_params)
        submissions = uploads_of(request.user, task=task or "", phase=phase or "")
        rows = []
        for submission in submissions[:1000]:
            data = MySubmissionSerializer(submission).data
            if not access.may_see_results(submission.phase, request.user):
                data = access.hidden_results(data, blind=submission.phase.blind)
            if not access.may_see_counted(submission.phase, request.user):
                data["counts"] = None
            rows.append(data)
        return Response({"submissions": rows})
