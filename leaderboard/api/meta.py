"""``GET /api/tasks/<slug>/meta-evaluation/``: how each metric agrees with the task's human judgments."""

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import params
from ..access import may_see_meta_evaluation, meta_evaluation_audience
from ..insights.meta import judgments_of, meta_table
from ..selectors.tasks import task_or_404
from .schema import PHASE


class MetaEvaluation(APIView):
    """The table of ``python -m scoring meta --json`` on the phase's stored statistics
    (organizers; everyone once the task's phases have ended). Human evaluation campaigns
    count as schemes ``NAME:EW``, ``NAME:TS``: every ranked one for organizers, the
    published ones for everyone else."""

    @extend_schema(parameters=[PHASE], responses={200: dict})
    def get(self, request, slug):
        task = task_or_404(slug)
        if not may_see_meta_evaluation(task, request.user):
            raise PermissionDenied(
                "the meta-evaluation is shown to organizers, and to everyone once the task has ended"
            )
        audience = meta_evaluation_audience(task, request.user)
        judgments = judgments_of(task, params.phase_key(request.query_params), audience=audience)
        if judgments is None:
            raise NotFound(f"task {slug} has no human judgments")
        return Response(
            {"phase": judgments.phase.kind, "files": judgments.files, **(meta_table(judgments, audience) or {})}
        )
