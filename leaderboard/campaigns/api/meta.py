"""``GET /api/tasks/<slug>/meta-evaluation/``: how each metric agrees with the task's human judgments."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from ... import params
from ...api.schema import PHASE
from ...selectors.shared_tasks import task_or_404
from ..insights.meta import meta_table, visible_judgments


class MetaEvaluation(APIView):
    """The table of ``python -m scoring meta --json`` on the phase's stored statistics
    (organizers; everyone once the task's phases have ended). Human evaluation campaigns
    count as schemes ``NAME:EW``, ``NAME:TS``: every ranked one for organizers, the
    published ones for everyone else."""

    @extend_schema(parameters=[PHASE], responses={200: dict})
    def get(self, request, slug):
        task = task_or_404(slug)
        judgments, audience = visible_judgments(task, request.user, params.phase_key(request.query_params))
        return Response(
            {"phase": judgments.phase.kind, "files": judgments.files, **(meta_table(judgments, audience) or {})}
        )
