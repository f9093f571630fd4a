"""``GET /api/tasks/<slug>/leaderboard/export?format=csv|json|tex|md`` (docs/contracts.md section 3).

The ranking table, or with ``table=per_type`` the per-error-type table of chosen
systems, as a file for the overview paper. Organizers and staff only. ``format`` is
this endpoint's own parameter, so DRF's ``?format=`` renderer override is switched off.
"""
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.views import APIView

from scoring import default_paths, per_type_metrics

from .. import access, params
from ..insights import exports
from ..insights.board import in_track, with_tracks
from ..insights.loading import comparison_inputs, scored_submissions
from ..insights.paths import metric_menu, metric_paths
from ..insights.per_type import chosen_table, comparison, table_of
from ..models import SharedTask
from ..ranking import board_rows, default_metric


class IgnoreFormatSuffix(DefaultContentNegotiation):
    """Answer with the first renderer whatever ``?format=`` says: the view makes the file."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def export_metrics(rows: list[dict], metric: str, asked: str, metric_names: list[str]) -> list[str]:
    """The columns: those asked for (comma-separated), else the ranking metric and the usual ones."""
    available = metric_menu(rows)
    if asked:
        wanted = [m.strip() for m in asked.split(",") if m.strip()]
        unknown = [m for m in wanted if m not in available]
        if unknown:
            raise params.BadParameter("metrics", f"no stored score at {', '.join(unknown)}", available)
        return wanted
    return [metric, *(m for m in default_paths(metric_names) if m != metric and m in available)]


class LeaderboardExport(APIView):
    content_negotiation_class = IgnoreFormatSuffix

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(exports.FORMATS)),
            OpenApiParameter("metric", str, description="rank by this path, e.g. errant.cs.f"),
            OpenApiParameter("metrics", str, description="comma-separated columns (default: the usual scores)"),
            OpenApiParameter("phase", str, description="the phase key, e.g. dev or test"),
            OpenApiParameter("track", str),
            OpenApiParameter("table", str, enum=["ranking", "per_type"]),
            OpenApiParameter("systems", str, description="per_type: comma-separated submission ids"),
            OpenApiParameter("cat", str, description="per_type: category level (ERRANT: 1, 2 or 3)"),
            OpenApiParameter("table_metric", str, enum=[cls.name for cls in per_type_metrics()], description="per_type: whose table (default errant)"),
        ],
        responses={200: str},
    )
    def get(self, request, slug):
        query = request.query_params
        task = get_object_or_404(SharedTask, slug=slug)
        if not access.may_organize(task, request.user):
            raise PermissionDenied("exports are for the task's organizers and staff")
        fmt = params.choice(query, "format", list(exports.FORMATS), "csv")
        phase = access.phase_for(request, task)
        metric = params.metric(query, lambda: metric_paths(phase), default_metric(task.metric_names()))
        if params.choice(query, "table", ("ranking", "per_type"), "ranking") == "per_type":
            table, name = self.per_type(request, task, phase), f"{task.slug}-{phase.kind}-per-type"
        else:
            rows = in_track(with_tracks(board_rows(phase.pk, metric)), params.choice(query, "track", task.tracks or []))
            columns = export_metrics(rows, metric, params.text(query, "metrics", max_length=2000), task.metric_names())
            table = exports.leaderboard_table(rows, columns, f"{task.title}, {phase.title} phase, ranked by {metric}.")
            name = f"{task.slug}-{phase.kind}-leaderboard"
        text, content_type = exports.render(table, fmt)
        response = HttpResponse(text, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
        return response

    def per_type(self, request, task, phase) -> exports.Table:
        query = request.query_params
        asked = params.choice(query, "table_metric", [cls.name for cls in per_type_metrics(task.metric_names())])
        metric, level = chosen_table(task.metric_names(), asked, "")
        level = params.choice(query, "cat", table_of(metric).levels, level)
        ids = params.ids(params.text(query, "systems", max_length=400).split(","), "systems")
        systems = comparison_inputs(scored_submissions(access.visible_submissions(phase, request.user), ids), metric)
        if not systems:
            raise params.BadParameter("systems", "give the ids of scored submissions of this phase")
        table = comparison(systems, level, task.beta, metric)
        detection = " and detection F" if table["detection_modes"] else ""
        caption = f"{task.title}: {table['metric_label']} per error type (cat {level}), correction TP/FP/FN/P/R/F{detection}."
        return exports.per_type_table(table, caption)
