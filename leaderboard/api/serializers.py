from rest_framework import serializers

from ..models import Phase, SharedTask, Submission


class PhaseSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField()
    n_sentences = serializers.IntegerField(source="dataset.n_sentences", read_only=True)
    n_references = serializers.IntegerField(source="dataset.n_references", read_only=True)

    class Meta:
        model = Phase
        fields = [
            "kind", "name", "state", "starts_at", "ends_at", "frozen_at", "results_visibility", "blind", "revealed", "counting",
            "max_per_day", "max_total", "max_upload_mb", "n_sentences", "n_references",
        ]

    def get_state(self, phase) -> str:
        """upcoming, open, frozen or ended"""
        return phase.state()


class TaskSerializer(serializers.ModelSerializer):
    phases = PhaseSerializer(many=True, read_only=True)
    metrics = serializers.SerializerMethodField()

    class Meta:
        model = SharedTask
        fields = ["slug", "title", "description", "tokenize", "tracks", "metrics", "beta", "gts_ref", "gts_weighted", "max_tokens", "phases", "created_at"]

    def get_metrics(self, task) -> list[str]:
        return task.metric_names()


class UploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    system_name = serializers.CharField(max_length=100)
    phase = serializers.SlugField(max_length=32, required=False)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    track = serializers.CharField(required=False, allow_blank=True, default="", max_length=32)


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
