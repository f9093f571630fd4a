"""Human evaluation campaigns: annotators rank a phase's outputs screen by screen.

A :class:`Campaign` belongs to a phase and names the systems (submissions) it ranks and
its annotators (any accounts). Preparing it (a worker job) samples :class:`Screen` rows,
one source sentence each with up to ``outputs_per_screen`` distinct outputs, and gives
each annotator a queue of :class:`Assignment` rows; a :class:`Judgment` is one
annotator's ranking of one assignment. ``results`` is what the worker last computed from
the judgments (``scoring human``'s JSON, controls, correlations), ``ranked_version`` the
``version`` (judgments received) it was computed from.

What a screen shows is kept apart from what it means: ``outputs`` hold the systems
behind each output and which output a control degraded, and only
:meth:`Screen.shown_outputs` (keys, texts, edits) ever reaches an annotator.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from ...models.text import NAME_MAX, visible_name


class Campaign(models.Model):
    class Mode(models.TextChoices):
        RANKING = "ranking", "rank the outputs (sentence level)"
        EDITS = "edits", "judge each edit, then rank (edit level)"
        RATING = "rating", "rate each output on named scales (direct assessment)"

    class Status(models.TextChoices):
        PREPARING = "preparing"
        READY = "ready"
        FAILED = "failed"

    task = models.ForeignKey("leaderboard.SharedTask", on_delete=models.CASCADE, related_name="campaigns")
    phase = models.ForeignKey("leaderboard.Phase", on_delete=models.CASCADE, related_name="campaigns")
    name = models.SlugField(
        max_length=NAME_MAX, validators=[visible_name], help_text="unique in the task; in the campaign's addresses"
    )
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.RANKING)
    corpus = models.SlugField(
        max_length=60,
        blank=True,
        default="",
        help_text="on a phase of several corpora: the corpus whose texts it shows",
    )
    systems = models.ManyToManyField(
        "leaderboard.Submission", related_name="campaigns", help_text="the submissions ranked"
    )
    annotators = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="campaigns")
    screens_per_annotator = models.PositiveIntegerField(validators=[MinValueValidator(1), MaxValueValidator(10_000)])
    outputs_per_screen = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(10)], help_text="1 only in mode rating"
    )
    builtin = models.JSONField(
        default=list,
        blank=True,
        help_text='mode rating: built-in outputs rated beside the systems ("ORIGINAL", "REFERENCE")',
    )
    scales = models.JSONField(
        default=list, blank=True, help_text='mode rating: [{"name", "min", "max"}], each output rated on each'
    )
    redundancy = models.PositiveSmallIntegerField(
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text="annotators who judge each screen",
    )
    repeats = models.PositiveIntegerField(
        default=0, help_text="screens each annotator sees twice (intra-annotator agreement)"
    )
    controls = models.FloatField(
        default=0.0,
        validators=[MinValueValidator(0.0), MaxValueValidator(0.5)],
        help_text="share of each annotator's screens that are control screens",
    )
    threshold = models.FloatField(
        default=0.05,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text="an annotator is trusted when the sign test's p-value is at most this",
    )
    seed = models.PositiveIntegerField(default=0)
    guidelines = models.TextField(
        blank=True, max_length=20_000, help_text="Markdown shown to annotators first and on demand"
    )
    practice = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(10)],
        help_text="practice screens at the start of each queue; their judgments do not count",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARING)
    message = models.TextField(blank=True, help_text="why preparing failed")
    published = models.BooleanField(
        default=False, help_text="the ranking is on the board and the page is open to everyone"
    )
    version = models.PositiveIntegerField(
        default=0, help_text="bumped by every judgment, skip, import or invitation answer"
    )
    ranked_version = models.IntegerField(default=-1, help_text="the version ``results`` were computed from")
    rank_queued = models.BooleanField(default=False, help_text="a re-ranking job is queued and has not started")
    results = models.JSONField(null=True, blank=True)
    ranked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["task", "name"], name="one_campaign_per_name")]
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.task.slug}/{self.name}"

    @property
    def is_ready(self) -> bool:
        return self.status == self.Status.READY


class Screen(models.Model):
    """One sentence and the outputs shown for it, in their shown order.

    ``outputs``: ``[{"key", "text", "edits", "systems": [submission id], "control_of": key|None}]``.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="screens")
    line = models.PositiveIntegerField(help_text="0-based line of the phase's dataset")
    source = models.TextField(help_text="the source sentence's tokens, as shown")
    before = models.TextField(blank=True, help_text="the sentence before it (context)")
    after = models.TextField(blank=True, help_text="the sentence after it (context)")
    outputs = models.JSONField()
    is_control = models.BooleanField(default=False)

    def shown_outputs(self) -> list[dict]:
        """What an annotator sees: no system, no sign of which output is a control."""
        return [{"key": o["key"], "text": o["text"], "edits": o["edits"]} for o in self.outputs]


class Assignment(models.Model):
    """A screen in one annotator's queue; ``repeat`` marks a screen they see a second time."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assignments")
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="empty until the invitation is accepted",
    )
    invitation = models.ForeignKey(
        "leaderboard.Invitation", null=True, blank=True, on_delete=models.SET_NULL, related_name="assignments"
    )
    screen = models.ForeignKey(Screen, on_delete=models.CASCADE, related_name="assignments")
    position = models.PositiveIntegerField()
    repeat = models.BooleanField(default=False)
    judged = models.BooleanField(default=False)
    practice = models.BooleanField(default=False, help_text="a practice screen: its judgment is not stored")
    skipped = models.BooleanField(default=False, help_text="skipped as broken; ``comment`` says why")
    comment = models.TextField(blank=True, max_length=2000)
    seconds = models.FloatField(null=True, blank=True, help_text="time the annotator spent on the screen")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "annotator", "position"], name="one_assignment_per_position")
        ]
        indexes = [models.Index(fields=["campaign", "annotator", "judged", "position"])]


def queue_counts(through: str = "") -> dict[str, models.Count]:
    """``total`` and ``done`` of annotators' queues, for ``.annotate()``/``.aggregate()``:
    the one definition every page, the API and the annotator's own progress count with
    (practice screens left out, as they count for nothing; a skipped screen is done).
    ``through``: the path to the assignments (``"assignments__"`` from an invitation)."""
    counted = models.Q(**{f"{through}practice": False})
    finished = models.Q(**{f"{through}judged": True}) | models.Q(**{f"{through}skipped": True})
    target = through.removesuffix("__") or "pk"
    return {
        "total": models.Count(target, filter=counted),
        "done": models.Count(target, filter=counted & finished),
    }


class Judgment(models.Model):
    """One annotator's ranking of one assignment (rank 1 = best, ties allowed), or one
    imported from a file (``assignment`` empty, ``user`` the file's annotator)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="judgments")
    assignment = models.OneToOneField(
        Assignment, null=True, blank=True, on_delete=models.CASCADE, related_name="judgment"
    )
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    user = models.CharField(max_length=150, help_text="the annotator's name as exported")
    line = models.PositiveIntegerField(help_text="0-based line of the phase's dataset")
    ranks = models.JSONField(
        help_text="{output key: rank}; imported: [[[submission id, ...], rank], ...], one per output"
    )
    edits = models.JSONField(default=dict, blank=True, help_text="mode edits: {output key: [valid?, ...]}")
    ratings = models.JSONField(
        default=dict,
        blank=True,
        help_text="mode rating: {output key: {scale: value}}; imported: {system: {scale: value}}",
    )
    imported = models.BooleanField(default=False)
    imported_from = models.CharField(
        max_length=64, blank=True, help_text="imported: the SHA-256 of the file's content (a file is imported once)"
    )
    duration = models.FloatField(null=True, blank=True, help_text="seconds spent on the screen (the XML's duration)")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["campaign", "created_at"]),
            models.Index(fields=["campaign", "imported_from"]),
        ]
