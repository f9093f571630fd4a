"""``GET /api/tasks/<slug>/leaderboard/export?format=csv|json|tex|md`` (docs/contracts.md section 3).

The ranking table, or with ``table=per_type`` the per-error-type table of chosen
systems, as a file for the overview paper. Organizers and staff only. ``format`` is
this endpoint's own parameter, so DRF's ``?format=`` renderer override is switched off.
"""

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.views import APIView

from scoring import per_type_metrics

from .. import access, params
from ..campaigns.board import column_heads, human_columns, with_human_columns
from ..downloads import attachment
from ..insights import exports
from ..insights.board import in_track, with_tracks
from ..insights.corpora import corpus_columns, macro_columns
from ..insights.loading import comparison_inputs, corpus_outputs, scored_submissions
from ..insights.paths import metric_menu, metric_paths
from ..insights.per_type import (
    ANNOTATOR_VIEW,
    VIEWS,
    annotator_comparison,
    chosen_table,
    comparison,
    has_annotator_types,
    table_of,
)
from ..selectors.shared_tasks import task_or_404
from ..standings import board_rows, headline_metric
from .schema import METRIC, PHASE, choice_parameter, file_responses, text_parameter


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
    return macro_columns(rows, metric, metric_names)


def table_metrics() -> list[str]:
    """Every metric with a per-error-type table (a task offers those of its metrics)."""
    return [cls.name for cls in per_type_metrics()]


def table_levels() -> list[str]:
    """Every category level of those tables."""
    return sorted({level for cls in per_type_metrics() if cls.per_type is not None for level in cls.per_type.levels})


class LeaderboardExport(APIView):
    content_negotiation_class = IgnoreFormatSuffix

    @extend_schema(
        parameters=[
            choice_parameter("format", exports.FORMATS, "the file's format (default csv)"),
            METRIC,
            text_parameter(
                "metrics",
                "comma-separated score paths, the columns (default: the ranking metric and the usual scores)",
                max_length=2000,
            ),
            PHASE,
            text_parameter("track", "only this track's systems (one of the task's tracks)"),
            choice_parameter("table", ("ranking", "per_type"), "the ranking (default) or the per-error-type table"),
            text_parameter(
                "systems",
                "per_type: comma-separated ids of scored submissions of the phase (at most 20); of a corpus "
                "(phase=dev--<corpus>), the uploads' ids too",
                max_length=400,
            ),
            choice_parameter(
                "cat", table_levels(), "per_type: category level (ERRANT: 1, 2 or 3; the table's default otherwise)"
            ),
            choice_parameter(
                "table_metric",
                table_metrics(),
                "per_type: whose table, one of the task's metrics (default: its first with one)",
            ),
            choice_parameter(
                "types",
                VIEWS,
                "per_type, ERRANT on gold with its annotators' own types: errant (system and gold edits "
                "classified alike, default) or annotator (the gold's own types, recall only)",
            ),
        ],
        responses=file_responses(exports.FORMATS),
    )
    def get(self, request, slug):
        query = request.query_params
        task = task_or_404(slug)
        if not access.may_organize(task, request.user):
            raise PermissionDenied("exports are for the task's organizers and staff")
        fmt = params.choice(query, "format", list(exports.FORMATS), "csv")
        phase = access.phase_for(request, task)
        metric = params.metric(query, lambda: metric_paths(phase), headline_metric(task))
        per_type = params.choice(query, "table", ("ranking", "per_type"), "ranking") == "per_type"
        # checked whichever table is asked for, as the schema describes them
        table_metric, level = (
            params.choice(query, "table_metric", table_metrics()),
            params.choice(query, "cat", table_levels()),
        )
        types = params.choice(query, "types", list(VIEWS), "errant")
        systems = params.ids(params.text(query, "systems", max_length=400).split(","), "systems")
        track, columns = (
            params.choice(query, "track", task.tracks or []),
            params.text(query, "metrics", max_length=2000),
        )
        if per_type:
            table, name = (
                self.per_type(request, task, phase, table_metric, level, systems, types),
                f"{task.slug}-{phase.kind}-per-type",
            )
        else:
            rows = in_track(with_tracks(board_rows(phase.pk, metric)), track)
            corpora = [(c.corpus, corpus_columns(phase)) for c in phase.corpora()] if phase.is_multi_corpus else []
            human = human_columns(phase)
            rows = with_human_columns(rows, human) if human else rows
            table = exports.leaderboard_table(
                rows,
                export_metrics(rows, metric, columns, task.metric_names()),
                f"{task.title}, {phase.title} phase, ranked by {metric}.",
                corpora,
                column_heads(human),
            )
            name = f"{task.slug}-{phase.kind}-leaderboard"
        text, content_type = exports.render(table, fmt)
        return attachment(text, content_type, f"{name}.{fmt}")

    def per_type(self, request, task, phase, asked: str, level: str, ids: list[int], types: str) -> exports.Table:
        names = [cls.name for cls in per_type_metrics(task.metric_names())]
        if asked and asked not in names:
            raise params.BadParameter("table_metric", f"one of {', '.join(names) or '(none)'}", names)
        metric, default_level = chosen_table(task.metric_names(), asked, "")
        levels = table_of(metric).levels
        if level and level not in levels:
            raise params.BadParameter("cat", f"one of {', '.join(levels)}", levels)
        if phase.is_multi_corpus:
            corpora = [c.kind for c in phase.corpora()]
            raise params.BadParameter(
                "phase",
                f"a per-type table is per corpus: name one of this phase's corpora, {', '.join(corpora)}",
                corpora,
            )
        systems = comparison_inputs(chosen_submissions(phase, request.user, ids), metric)
        if not systems:
            raise params.BadParameter(
                "systems",
                "give the ids of scored submissions of this phase (of a corpus: the uploads' ids, or their "
                "outputs' on it)",
            )
        if types == ANNOTATOR_VIEW:
            if not has_annotator_types(systems):
                raise params.BadParameter(
                    "types", "this gold has no annotators' types other than ERRANT's", list(VIEWS)[:1]
                )
            return exports.annotator_type_table(
                annotator_comparison(systems),
                f"{task.title}: recall per error type of the gold's annotators (their own types).",
            )
        table = comparison(systems, level or default_level, task.beta, metric)
        detection = " and detection F" if table["detection_modes"] else ""
        caption = (
            f"{task.title}: {table['metric_label']} per error type (cat {level or default_level}), correction "
            f"TP/FP/FN/P/R/F{detection}."
        )
        return exports.per_type_table(table, caption)


def chosen_submissions(phase, user, ids: list[int]) -> list:
    """The scored submissions ``ids`` name; on a corpus of a phase of several corpora an
    upload's id names its output on that corpus (:func:`~leaderboard.insights.loading.corpus_outputs`)."""
    if phase.parent_id:
        return corpus_outputs(
            access.visible_submissions(phase, user), access.visible_submissions(phase.parent, user), ids
        )
    return scored_submissions(access.visible_submissions(phase, user), ids)
