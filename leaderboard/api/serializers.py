from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring

from ..insights.uploads import is_upload_of_corpora, upload_entry
from ..models import Phase, SharedTask, Submission
from ..models.shared_tasks import current_of
from ..models.text import NAME_MAX, SUBMISSION_DESCRIPTION_MAX, TRACK_MAX, visible_name
from ..standings import headline_metric


class CorpusSerializer(serializers.Serializer):
    name = serializers.CharField(source="corpus", help_text="the file name in a zip submission: <name>.txt")
    lang = serializers.CharField(source="dataset.lang")
    pipeline = serializers.CharField(
        source="dataset.pipeline", help_text="empty: the richest available for the language"
    )
    n_sentences = serializers.IntegerField(source="dataset.n_sentences")
    n_references = serializers.IntegerField(source="dataset.n_references")
    max_tokens = serializers.IntegerField(source="dataset.max_tokens")


class PhaseSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField()
    results_public = serializers.SerializerMethodField(help_text="whether everyone may see this phase's results now")
    n_sentences = serializers.IntegerField(
        source="dataset.n_sentences", read_only=True, allow_null=True, help_text="null for a phase of several corpora"
    )
    n_references = serializers.IntegerField(source="dataset.n_references", read_only=True, allow_null=True)
    corpora = serializers.SerializerMethodField(
        help_text="a phase of several corpora: each with its language; empty otherwise"
    )
    references_public = serializers.SerializerMethodField()

    class Meta:
        model = Phase
        fields = [
            "kind",
            "name",
            "state",
            "starts_at",
            "ends_at",
            "frozen_at",
            "results_visibility",
            "blind",
            "revealed",
            "counting",
            "max_per_day",
            "max_total",
            "max_upload_mb",
            "n_sentences",
            "n_references",
            "gleu_variant",
            "corpora",
            "results_public",
            "references_public",
        ]

    def get_state(self, phase) -> str:
        """upcoming, open, frozen or ended"""
        return phase.state()

    @extend_schema_field(CorpusSerializer(many=True))
    def get_corpora(self, phase) -> list[dict]:
        return CorpusSerializer(phase.corpora(), many=True).data if phase.is_multi_corpus else []

    def get_results_public(self, phase) -> bool:
        return phase.results_public()

    def get_references_public(self, phase) -> bool:
        """participants may download the references (GET /api/tasks/<slug>/references/); never for a test phase"""
        return phase.references_public and not phase.is_test


class TaskSerializer(serializers.ModelSerializer):
    phases = PhaseSerializer(many=True, read_only=True)
    metrics = serializers.SerializerMethodField()
    score_paths = serializers.SerializerMethodField(
        help_text="every path ?metric= accepts, with its label and direction"
    )
    ranked_by = serializers.SerializerMethodField(help_text="the path the board ranks by when none is asked")
    default_phase = serializers.SerializerMethodField(
        help_text="the phase shown when none is named (the open one whose results are public)"
    )

    class Meta:
        model = SharedTask
        fields = [
            "slug",
            "title",
            "description",
            "tokenize",
            "tracks",
            "metrics",
            "score_paths",
            "ranked_by",
            "beta",
            "gts_ref",
            "gts_weighted",
            "max_tokens",
            "max_team_size",
            "phases",
            "default_phase",
            "created_at",
        ]

    def get_metrics(self, task) -> list[str]:
        return task.metric_names()

    def get_score_paths(self, task) -> list[dict]:
        """``[{"path", "label", "higher_is_better", "headline"}]`` from the metric registry."""
        names = task.metric_names()
        headline = {p.path for p in scoring.headline_scores(names)}
        return [
            {"path": p.path, "label": p.label, "higher_is_better": p.higher_is_better, "headline": p.path in headline}
            for p in scoring.score_paths(names)
        ]

    def get_ranked_by(self, task) -> str:
        return headline_metric(task)

    def get_default_phase(self, task) -> str:
        phase = current_of(sorted(task.phases.all(), key=lambda p: (p.starts_at, p.pk)))
        return phase.kind if phase else ""


class TaskSettingsSerializer(serializers.Serializer):
    """What organizers change through ``PATCH /api/tasks/<slug>/``."""

    max_team_size = serializers.IntegerField(min_value=1, max_value=1000, help_text="the most members a team may have")
    headline_metric = serializers.CharField(
        max_length=100,
        allow_blank=True,
        help_text="the score path the boards rank by and 'best' compares: one of the task's score_paths "
        "(empty: the registry's default); the phases are recounted at once",
    )

    def validate_headline_metric(self, path: str) -> str:
        """The model's own check (the admin, the host form and create_task ask it too)."""
        task = self.context["task"]
        problem = task.headline_problem(path)
        if problem:
            raise serializers.ValidationError(problem)
        return path


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    system_name = serializers.CharField(max_length=NAME_MAX, validators=[visible_name])
    phase = serializers.SlugField(max_length=32, required=False)
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=SUBMISSION_DESCRIPTION_MAX
    )
    track = serializers.CharField(required=False, allow_blank=True, default="", max_length=TRACK_MAX)
    corpus = serializers.SlugField(
        required=False,
        allow_blank=True,
        default="",
        max_length=60,
        help_text="a phase of several corpora: the corpus of this file (else a zip of <corpus>.txt files)",
    )


# What a team is told of its submission: in a blind phase only that the file was received
# (access.hidden_results), so ``received`` joins the model's statuses and progress may be null.
SHOWN_STATUSES = [*Submission.Status.values, "received"]


# The fields every answer about a submission shares (each subclass lists its own in
# ``Meta.fields``): its status as its team is told it, and its task, phase and team by name.
# A comment, not a docstring: the schema would give the subclasses its text.
class ShownSubmissionSerializer(serializers.ModelSerializer):
    status = serializers.ChoiceField(choices=SHOWN_STATUSES, read_only=True)
    progress = serializers.FloatField(
        min_value=0, max_value=1, allow_null=True, read_only=True, help_text="0..1; null in a blind phase"
    )
    team = serializers.CharField(source="team.name")
    task = serializers.CharField(source="phase.task.slug")
    phase = serializers.CharField(source="phase.kind")


class SubmissionSerializer(ShownSubmissionSerializer):
    scores = serializers.SerializerMethodField()
    corpora = serializers.SerializerMethodField(
        help_text="an upload to a phase of several corpora: each corpus's scores in the team's entry as it stood once "
        "this upload was in (null: no output for the corpus yet); empty otherwise"
    )
    corpus_uploads = serializers.SerializerMethodField(
        help_text="an upload to a phase of several corpora: the upload each corpus's output came in (this one, or an "
        "earlier one of the team); empty otherwise"
    )

    class Meta:
        model = Submission
        fields = [
            "id",
            "status",
            "progress",
            "error",
            "scores",
            "task",
            "phase",
            "team",
            "system_name",
            "description",
            "track",
            "filename",
            "size",
            "is_baseline",
            "signature",
            "created_at",
            "started_at",
            "scored_at",
            "corpora",
            "corpus_uploads",
        ]

    def entry(self, submission) -> dict | None:
        """The upload's entry (:func:`leaderboard.insights.uploads.upload_entry`), read once; None for any other
        submission."""
        if not is_upload_of_corpora(submission):
            return None
        if not hasattr(submission, "_entry"):
            submission._entry = (
                upload_entry(submission)
                if submission.status == Submission.Status.SCORED
                else {"scores": {}, "corpora": {}, "corpus_uploads": {}}
            )
        return submission._entry

    def get_scores(self, submission) -> dict:
        """One system's object as in the CLI's JSON (docs/contracts.md section 2); of an
        upload to a phase of several corpora, the macro average over its entry's corpora
        (empty while the entry misses a corpus), as on the board."""
        entry = self.entry(submission)
        if entry is not None:
            return entry["scores"]
        return (
            {r.metric: r.scores for r in submission.results.all()}
            if submission.status == Submission.Status.SCORED
            else {}
        )

    @extend_schema_field(serializers.DictField(child=serializers.DictField(allow_null=True)))
    def get_corpora(self, submission) -> dict:
        entry = self.entry(submission)
        return entry["corpora"] if entry is not None else {}

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField(allow_null=True)))
    def get_corpus_uploads(self, submission) -> dict:
        entry = self.entry(submission)
        return entry["corpus_uploads"] if entry is not None else {}


class ProblemSerializer(serializers.Serializer):
    line = serializers.IntegerField(
        min_value=0, help_text="the file's line number; 0 when the problem is not about a line"
    )
    message = serializers.CharField()
    file = serializers.CharField(required=False, help_text="the file the line is in, when the upload holds several")


class ErrorSerializer(serializers.Serializer):
    """The API's answer to a request it cannot take: every problem found."""

    errors = ProblemSerializer(many=True)
    valid = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="the values the parameter accepts"
    )


class DetailSerializer(serializers.Serializer):
    """DRF's answer to a refused request (authentication, permission, no such object, throttled)."""

    detail = serializers.CharField()


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        help_text="null for an organizers' baseline (``baseline`` true): a reference point on the board, in the "
        "GoToScorer pool, not ranked among the teams",
    )
    team = serializers.CharField()
    system_name = serializers.CharField()
    submission_id = serializers.IntegerField()
    baseline = serializers.BooleanField(
        help_text="an organizers' baseline (e.g. the uncorrected input): a reference point, unranked (rank null)"
    )
    scored_at = serializers.DateTimeField(allow_null=True)
    value = serializers.FloatField(allow_null=True, help_text="the score at ``metric``; null when the system has none")
    scores = serializers.DictField(
        help_text="every stored score, as in the CLI's JSON; a phase of several corpora: their macro average (empty "
        "when the entry misses a corpus)"
    )
    corpora = serializers.DictField(
        child=serializers.DictField(allow_null=True),
        required=False,
        help_text="a phase of several corpora only: each corpus's scores (null: the entry has no output for it)",
    )
    corpus_uploads = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="a phase of several corpora only: the upload each corpus's output came in (the row's own "
        "submission_id, or an earlier upload of the team)",
    )


class BoardPageSerializer(serializers.Serializer):
    offset = serializers.IntegerField(min_value=0)
    limit = serializers.IntegerField(min_value=1)
    total = serializers.IntegerField(min_value=0, help_text="rows of the whole board")
    next_offset = serializers.IntegerField(allow_null=True, help_text="the next page's offset (null: the last page)")


class BoardSerializer(serializers.Serializer):
    """``GET /api/tasks/<slug>/leaderboard/`` (built by :func:`leaderboard.standings.leaderboard_body`)."""

    metric = serializers.CharField(help_text="the score path the rows are ranked by")
    phase = serializers.CharField()
    version = serializers.IntegerField(min_value=0, help_text="the pool's version: changes whenever the board does")
    rows = BoardRowSerializer(many=True)
    page = BoardPageSerializer(required=False, help_text="with limit: which rows these are")


class ChunkDifficultySerializer(serializers.Serializer):
    position = serializers.IntegerField()
    sentence = serializers.IntegerField()
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    correction = serializers.CharField(allow_blank=True)
    error_type = serializers.CharField(allow_blank=True)
    modified = serializers.BooleanField()
    n = serializers.IntegerField(min_value=0, help_text="systems of the pool that got the chunk right")
    weight = serializers.FloatField(allow_null=True, help_text="1 - n / pool_size; null while the pool is empty")


class DifficultySerializer(serializers.Serializer):
    phase = serializers.CharField()
    pool_size = serializers.IntegerField(min_value=0)
    reference = serializers.IntegerField(help_text="the reference annotator GoToScorer uses")
    chunks = ChunkDifficultySerializer(many=True)
    next_after = serializers.IntegerField(
        required=False, allow_null=True, help_text="with limit: the next page's after (null: the last page)"
    )


class ActionDoneSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["choose", "withdraw", "restore"])
    done = serializers.BooleanField()
