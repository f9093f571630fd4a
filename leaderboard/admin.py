"""The organizer's back office: every model, with filters, search and the phase actions.

Actions call the same services as the pages; anything that scores is queued.
"""

from django.contrib import admin, messages
from django.db import transaction

from .models import (
    Assignment,
    BoardTies,
    Campaign,
    Dataset,
    GoldChunk,
    Invitation,
    Judgment,
    Judgments,
    Membership,
    MetricResult,
    OrganizerJob,
    ParsedLine,
    Phase,
    Pool,
    PoolMember,
    Profile,
    RateBucket,
    SampledScores,
    Screen,
    SharedTask,
    Submission,
    TaskPage,
    Team,
    TermsAcceptance,
)
from .services.hosting import phases
from .services.hosting.organizer_jobs import queue_job, requeue_job
from .services.jobs.sweeper import requeue
from .services.pool.recount import leave_pools_before_deletion, recount, recount_task


def queue_rescores(request, tasks) -> None:
    for task in tasks:
        job = queue_job(OrganizerJob.Kind.RESCORE, task, user=request.user)
        messages.info(
            request, f"Rescore of {task.slug} queued as job #{job.pk} (progress on /tasks/{task.slug}/jobs/{job.pk}/)."
        )


class PhaseInline(admin.TabularInline):
    model = Phase
    fields = [
        "kind",
        "name",
        "starts_at",
        "ends_at",
        "results_visibility",
        "blind",
        "revealed",
        "frozen_at",
        "counting",
    ]
    extra = 0
    show_change_link = True


@admin.register(SharedTask)
class SharedTaskAdmin(admin.ModelAdmin):
    list_display = ["slug", "title", "status", "signup", "created_by", "created_at"]
    list_filter = ["status", "signup", "tokenize"]
    search_fields = ["slug", "title", "description"]
    filter_horizontal = ["organizers"]
    inlines = [PhaseInline]
    actions = ["rescore"]

    @admin.action(description="Rescore every submission (queued)")
    def rescore(self, request, queryset):
        queue_rescores(request, queryset)

    def save_model(self, request, obj, form, change):
        """The model's ``clean`` has refused a headline outside the task's score paths; a
        new headline or metric list changes who is "best" and what boards rank by."""
        super().save_model(request, obj, form, change)
        if change and {"headline_metric", "metrics"} & set(form.changed_data):
            recount_task(obj)

    def save_formset(self, request, form, formset, change):
        """A phase's counting rule changed in the inline: its pool and board follow now."""
        super().save_formset(request, form, formset, change)
        for phase_form in formset.forms:
            if phase_form.instance.pk and "counting" in phase_form.changed_data:
                recount(phase_form.instance.pk)


@admin.register(Dataset)
class DatasetAdmin(admin.ModelAdmin):
    list_display = ["name", "task", "n_sentences", "n_references", "from_m2", "is_prepared", "created_at"]
    list_filter = ["from_m2", "task"]
    search_fields = ["name", "task__slug"]
    readonly_fields = ["source", "references", "n_sentences", "n_references", "from_m2"]

    @admin.display(boolean=True, description="prepared")
    def is_prepared(self, dataset):
        return dataset.is_prepared


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "name",
        "state",
        "starts_at",
        "ends_at",
        "results_visibility",
        "blind",
        "revealed",
        "counting",
        "max_per_day",
        "max_total",
    ]
    list_filter = ["task", "results_visibility", "blind", "revealed", "counting"]
    search_fields = ["kind", "name", "task__slug", "task__title"]
    raw_id_fields = ["dataset"]
    actions = ["freeze", "unfreeze", "reveal", "hide", "rescore"]

    def _each(self, request, queryset, act, done: str):
        for phase in queryset.select_related("task"):
            act(phase)
        messages.success(request, f"{queryset.count()} phase(s) {done}.")

    @admin.action(description="Freeze (no more submissions)")
    def freeze(self, request, queryset):
        self._each(request, queryset, phases.freeze, "frozen")

    @admin.action(description="Unfreeze (accept submissions again)")
    def unfreeze(self, request, queryset):
        self._each(request, queryset, phases.unfreeze, "unfrozen")

    @admin.action(description="Reveal results")
    def reveal(self, request, queryset):
        self._each(request, queryset, phases.reveal, "revealed")

    @admin.action(description="Hide results again")
    def hide(self, request, queryset):
        self._each(request, queryset, phases.hide, "hidden")

    @admin.action(description="Rescore their tasks (queued)")
    def rescore(self, request, queryset):
        queue_rescores(request, SharedTask.objects.filter(phases__in=queryset).distinct())

    def save_model(self, request, obj, form, change):
        """A new counting rule moves the pool and the board at once, not at the next upload."""
        super().save_model(request, obj, form, change)
        if change and "counting" in form.changed_data:
            recount(obj.parent_id or obj.pk)


class FailedFilter(admin.SimpleListFilter):
    title = "failure"
    parameter_name = "failure"

    def lookups(self, request, model_admin):
        return [("any", "failed (any cause)"), *Submission.FailureCause.choices[1:]]

    def queryset(self, request, queryset):
        if self.value() == "any":
            return queryset.filter(status=Submission.Status.FAILED)
        if self.value():
            return queryset.filter(status=Submission.Status.FAILED, failure_cause=self.value())
        return queryset


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "phase",
        "team",
        "system_name",
        "status",
        "progress",
        "failure_cause",
        "short_error",
        "is_baseline",
        "hidden",
        "created_at",
    ]
    list_filter = ["status", FailedFilter, "is_baseline", "hidden", "phase__task", "phase"]
    search_fields = ["system_name", "team__name", "error", "filename"]
    readonly_fields = [
        "error",
        "signature",
        "size",
        "filename",
        "attempts",
        "worker_losses",
        "started_at",
        "heartbeat_at",
        "scored_at",
    ]
    raw_id_fields = ["phase", "team", "submitted_by"]
    actions = ["requeue"]

    COUNTING = {"hidden", "is_baseline", "chosen", "status", "phase", "team"}  # what decides who counts

    @admin.display(description="error")
    def short_error(self, submission):
        return submission.error[:120]

    def delete_model(self, request, obj):
        """Leave the pool first (its counts move by what the member held), then go."""
        with transaction.atomic():
            leave_pools_before_deletion(Submission.objects.filter(pk=obj.pk))
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            leave_pools_before_deletion(queryset)
            super().delete_queryset(request, queryset)

    def save_model(self, request, obj, form, change):
        """A submission withdrawn, restored, chosen or made a baseline by hand: the pool
        and the board of its phase (and of the phase it left) follow at once."""
        before = form.initial.get("phase")
        super().save_model(request, obj, form, change)
        if change and self.COUNTING & set(form.changed_data):
            for phase_id in {before, obj.phase_id} - {None}:
                recount(Phase.every.filter(pk=phase_id).values_list("parent_id", flat=True).first() or phase_id)

    @admin.action(description="Re-queue for scoring (failed, queued or stuck ones)")
    def requeue(self, request, queryset):
        waiting = queryset.exclude(status=Submission.Status.SCORED)
        for submission_id in waiting.values_list("pk", flat=True):
            requeue(submission_id)
        skipped = queryset.count() - waiting.count()
        messages.success(
            request,
            f"{waiting.count()} submission(s) re-queued"
            + (f"; {skipped} scored one(s) left alone (rescore the task instead)" if skipped else "")
            + ".",
        )


@admin.register(OrganizerJob)
class OrganizerJobAdmin(admin.ModelAdmin):
    list_display = ["pk", "kind", "task", "status", "progress", "message", "created_by", "created_at", "finished_at"]
    list_filter = ["kind", "status", "task"]
    search_fields = ["task__slug", "message"]
    readonly_fields = ["result", "attempts", "heartbeat_at"]
    actions = ["run_again"]

    @admin.action(description="Run again")
    def run_again(self, request, queryset):
        for job in queryset.select_related("task"):
            requeue_job(job)
        messages.success(request, f"{queryset.count()} job(s) queued again.")


@admin.register(MetricResult)
class MetricResultAdmin(admin.ModelAdmin):
    list_display = ["submission", "metric", "updated_at"]
    list_filter = ["metric", "submission__phase__task"]
    search_fields = ["submission__system_name", "submission__team__name"]
    raw_id_fields = ["submission"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "task", "approved", "created_at"]
    list_filter = ["approved", "task"]
    search_fields = ["name", "memberships__user__username"]
    inlines = [MembershipInline]
    actions = ["approve"]

    def delete_model(self, request, obj):
        """A team's submissions leave the pools first (see SubmissionAdmin.delete_model)."""
        with transaction.atomic():
            leave_pools_before_deletion(Submission.objects.filter(team=obj))
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            leave_pools_before_deletion(Submission.objects.filter(team__in=queryset))
            super().delete_queryset(request, queryset)

    @admin.action(description="Approve the teams")
    def approve(self, request, queryset):
        messages.success(request, f"{queryset.update(approved=True)} team(s) approved.")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "team", "task", "joined_at"]
    list_filter = ["task"]
    search_fields = ["user__username", "team__name"]
    raw_id_fields = ["user", "team"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "notify_by_email"]
    list_filter = ["notify_by_email"]
    search_fields = ["user__username", "user__email"]


@admin.register(Pool)
class PoolAdmin(admin.ModelAdmin):
    list_display = ["phase", "size", "version", "updated_at"]
    list_filter = ["phase__task"]
    search_fields = ["phase__task__slug", "phase__kind"]


@admin.register(PoolMember)
class PoolMemberAdmin(admin.ModelAdmin):
    list_display = ["submission", "pool", "joined_at"]
    list_filter = ["pool__phase__task"]
    search_fields = ["submission__system_name", "submission__team__name"]
    raw_id_fields = ["submission", "pool"]


@admin.register(BoardTies)
class BoardTiesAdmin(admin.ModelAdmin):
    """A board's significance groups as the worker last stored them (services/boards/ties.py)."""

    list_display = ["phase", "metric", "track", "computed_at", "asked_at"]
    list_filter = ["phase__task", "metric"]
    search_fields = ["phase__task__slug", "metric", "track"]
    raw_id_fields = ["phase"]
    readonly_fields = ["rows_key", "order", "groups", "computed_at", "asked_key", "asked_at"]


@admin.register(SampledScores)
class SampledScoresAdmin(admin.ModelAdmin):
    """A submission's bootstrap-sampled scores, kept for the tie groups (insights/sampled.py)."""

    list_display = ["submission", "path", "observed", "key"]
    list_filter = ["path"]
    search_fields = ["submission__system_name", "submission__team__name", "path"]
    raw_id_fields = ["submission"]
    readonly_fields = ["key", "observed", "values"]


@admin.register(GoldChunk)
class GoldChunkAdmin(admin.ModelAdmin):
    list_display = ["phase", "position", "sentence", "start", "end", "correction", "error_type", "n", "failures"]
    list_filter = ["phase__task", "error_type", "modified"]
    search_fields = ["correction", "error_type"]
    raw_id_fields = ["phase"]

    def get_queryset(self, request):
        return super().get_queryset(request).with_n()

    @admin.display(description="n (correct)", ordering="n")
    def n(self, chunk) -> int:
        """n_i = N - f_i: the pool members judged correct on this chunk."""
        return chunk.n


@admin.register(RateBucket)
class RateBucketAdmin(admin.ModelAdmin):
    """Throttle state (keys are hashes): deleting a bucket lifts its lockout."""

    list_display = ["key", "tokens", "updated_at"]
    list_filter = ["updated_at"]
    search_fields = ["key"]


@admin.register(Judgments)
class JudgmentsAdmin(admin.ModelAdmin):
    """Human judgments of a phase (``manage.py attach_judgments``); the table is recomputed from them."""

    list_display = ["phase", "updated_at"]
    list_filter = ["phase__task"]
    search_fields = ["phase__task__slug", "phase__kind"]
    readonly_fields = ["table", "table_key", "organizer_table", "organizer_table_key"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    """A human evaluation campaign; its figures are the worker's (read only here)."""

    list_display = ["name", "task", "phase", "mode", "status", "published", "ranked_at"]
    list_filter = ["task", "status", "mode", "published"]
    search_fields = ["name", "task__slug"]
    readonly_fields = ["results", "ranked_version", "ranked_at", "version", "rank_queued"]
    filter_horizontal = ["annotators"]
    raw_id_fields = ["systems", "created_by"]


def register_campaign_part(
    model, columns: list[str], filters: list[str], search: list[str], raw_ids: list[str]
) -> None:
    """A campaign's screens, assignments and judgments share one admin shape: listed under
    their campaign, filtered by its task, found by its name, then their own fields."""
    options = {
        "list_display": ["campaign", *columns],
        "list_filter": ["campaign__task", *filters],
        "search_fields": ["campaign__name", *search],
    }
    if raw_ids:
        options["raw_id_fields"] = raw_ids
    admin.site.register(model, type(f"{model.__name__}Admin", (admin.ModelAdmin,), {"__module__": __name__, **options}))


register_campaign_part(Screen, ["line", "is_control"], ["is_control"], [], [])
register_campaign_part(
    Assignment, ["annotator", "position", "repeat", "judged"], ["judged", "repeat"], ["annotator__username"], ["screen"]
)
register_campaign_part(
    Judgment, ["user", "line", "imported", "created_at"], ["imported"], ["user"], ["annotator", "assignment"]
)
# The token is the invitation's secret: listed nowhere, never searched.
register_campaign_part(Invitation, ["invitee", "status", "user", "created_at"], ["status"], ["invitee"], ["user"])


@admin.register(ParsedLine)
class ParsedLineAdmin(admin.ModelAdmin):
    """The task's shared parse cache (one spaCy parse per distinct output line); safe to empty."""

    list_display = ["dataset", "key"]
    list_filter = ["dataset"]
    search_fields = ["key"]
    exclude = ["parse"]


@admin.register(TaskPage)
class TaskPageAdmin(admin.ModelAdmin):
    """A task's Markdown tabs (Overview, Data, Evaluation, Terms); organizers edit them under Organize, Pages."""

    list_display = ["task", "name", "updated_at"]
    list_filter = ["name", "task"]
    search_fields = ["task__slug", "markdown"]


@admin.register(TermsAcceptance)
class TermsAcceptanceAdmin(admin.ModelAdmin):
    """Who accepted which version of a task's terms, and when."""

    list_display = ["user", "task", "version", "accepted_at"]
    list_filter = ["task"]
    search_fields = ["user__username", "task__slug", "version"]
    raw_id_fields = ["user"]
