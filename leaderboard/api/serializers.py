from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring

from ..models import Phase, SharedTask, Submission
from ..ranking import headline_metric


class CorpusSerializer(serializers.Serializer):
    name = serializers.CharField(source="corpus", help_text="the file name in a zip submission: <name>.txt")
    lang = serializers.CharField(source="dataset.lang")
    pipeline = serializers.CharField(source="dataset.pipeline", help_text="empty: the richest available for the language")
    n_sentences = serializers.IntegerField(source="dataset.n_sentences")
    n_references = serializers.IntegerField(source="dataset.n_references")
    max_tokens = serializers.IntegerField(source="dataset.max_tokens")


class PhaseSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField()
    n_sentences = serializers.IntegerField(source="dataset.n_sentences", read_only=True, allow_null=True, help_text="null for a phase of several corpora")
    n_references = serializers.IntegerField(source="dataset.n_references", read_only=True, allow_null=True)
    corpora = serializers.SerializerMethodField(help_text="a phase of several corpora: each with its language; empty otherwise")

    class Meta:
        model = Phase
        fields = [
            "kind", "name", "state", "starts_at", "ends_at", "frozen_at", "results_visibility", "blind", "revealed", "counting",
            "max_per_day", "max_total", "max_upload_mb", "n_sentences", "n_references", "gleu_variant", "corpora",
        ]

    def get_state(self, phase) -> str:
        """upcoming, open, frozen or ended"""
        return phase.state()

    @extend_schema_field(CorpusSerializer(many=True))
    def get_corpora(self, phase) -> list[dict]:
        return CorpusSerializer(phase.corpora(), many=True).data if phase.is_multi_corpus else []


class TaskSerializer(serializers.ModelSerializer):
    phases = PhaseSerializer(many=True, read_only=True)
    metrics = serializers.SerializerMethodField()
    score_paths = serializers.SerializerMethodField(help_text="every path ?metric= accepts, with its label and direction")
    ranked_by = serializers.SerializerMethodField(help_text="the path the board ranks by when none is asked")

    class Meta:
        model = SharedTask
        fields = [
            "slug", "title", "description", "tokenize", "tracks", "metrics", "score_paths", "ranked_by", "beta", "gts_ref", "gts_weighted",
            "max_tokens", "phases", "created_at",
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


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    system_name = serializers.CharField(max_length=100)
    phase = serializers.SlugField(max_length=32, required=False)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    track = serializers.CharField(required=False, allow_blank=True, default="", max_length=32)
    corpus = serializers.SlugField(required=False, allow_blank=True, default="", max_length=60, help_text="a phase of several corpora: the corpus of this file (else a zip of <corpus>.txt files)")


class SubmissionSerializer(serializers.ModelSerializer):
    team = serializers.CharField(source="team.name")
    task = serializers.CharField(source="phase.task.slug")
    phase = serializers.CharField(source="phase.kind")
    scores = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = [
            "id", "status", "progress", "error", "scores", "task", "phase", "team", "system_name", "description", "track",
            "filename", "size", "is_baseline", "signature", "created_at", "started_at", "scored_at",
        ]

    def get_scores(self, submission) -> dict:
        """One system's object as in the CLI's JSON (CONTRACTS.md section 2)."""
        return {r.metric: r.scores for r in submission.results.all()} if submission.status == Submission.Status.SCORED else {}


class ErrorSerializer(serializers.Serializer):
    errors = serializers.ListField(child=serializers.DictField())
