"""A shared task, its phases and the hidden dataset each phase is scored against."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone

from .text import NAME_MAX, TASK_DESCRIPTION_MAX, TITLE_MAX, at_most, valid_tracks, visible_name


def at_most_in_database(field: str, limit: int, name: str) -> models.CheckConstraint:
    """The length limit of a text field, kept by the database too (whatever wrote the row)."""
    return models.CheckConstraint(
        condition=LessThanOrEqual(Length(field), limit),
        name=name,
        violation_error_message=f"{field}: at most {limit} characters",
    )


def input_limits(line_tokens: int | None = None):
    """The library's :class:`scoring.Limits` on this site: ``line_tokens`` per line (a
    task's ``max_tokens``; default the library's), ``GEC_MAX_FILE_TOKENS`` and
    ``GEC_MAX_FILE_CHARS`` per file, the library's characters per line."""
    from scoring import MAX_LINE_TOKENS, Limits

    return Limits(
        line_tokens=MAX_LINE_TOKENS if line_tokens is None else line_tokens,
        file_tokens=settings.GEC_MAX_FILE_TOKENS,
        file_chars=settings.GEC_MAX_FILE_CHARS,
    )


class SharedTaskQuerySet(models.QuerySet):
    def listed(self):
        """Tasks participants can open: the gold is ready and a phase exists. The rest
        (gold being prepared or failed, no phase yet) stay on their organizer page."""
        return self.filter(status=SharedTask.Status.READY, phases__isnull=False).distinct()


class SharedTask(models.Model):
    """What organizers create: the metric settings every submission is scored with.

    A task created from the browser is ``preparing`` while a worker parses its gold
    (``progress``, ``status_message``), then ``ready``; ``failed`` keeps the reason.
    """

    class Status(models.TextChoices):
        PREPARING = "preparing"
        READY = "ready"
        FAILED = "failed"

    class Signup(models.TextChoices):
        OPEN = "open", "anyone may register a team"
        APPROVAL = "approval", "organizers approve each team"
        CLOSED = "closed", "registration closed"

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=TITLE_MAX, validators=[visible_name])
    description = models.TextField(blank=True, validators=[at_most(TASK_DESCRIPTION_MAX)])
    tokenize = models.BooleanField(
        default=False, help_text="run the spaCy tokenizer on raw input (else input is tokenized)"
    )
    metrics = models.JSONField(default=list, blank=True, help_text="metric names; empty = every registered metric")
    beta = models.FloatField(default=0.5)
    sim = models.BooleanField(default=False, help_text="add similarity-weighted CLEME2.0")
    gts_ref = models.PositiveSmallIntegerField(default=0, help_text="GoToScorer reference annotator")
    gts_weighted = models.BooleanField(default=True)
    max_tokens = models.PositiveIntegerField(
        default=5000, help_text="longest accepted line, in tokens, of the task's new gold (each dataset keeps its own)"
    )
    tracks = models.JSONField(
        default=list,
        blank=True,
        validators=[valid_tracks],
        help_text='track names a submission may declare, e.g. ["restricted", "unrestricted", "low-resource"]',
    )
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organized_tasks")
    headline_metric = models.CharField(
        max_length=100,
        blank=True,
        help_text="the score path the board ranks by and 'best' means; empty = the registry's default",
    )
    gleu_variant = models.CharField(
        max_length=10,
        blank=True,
        choices=[
            ("official", "compute_gleu (official)"),
            ("multigec", "the PyPI gleu tool, as MultiGEC-2025 reported"),
        ],
        help_text="the GLEU a new phase takes unless its form says otherwise; empty = MultiGEC's for corpora from a "
        "bundle, the official one else",
    )
    signup = models.CharField(max_length=8, choices=Signup.choices, default=Signup.OPEN)
    max_team_size = models.PositiveSmallIntegerField(
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
        help_text="the most members a team may have; joining a full team is refused",
    )
    auto_approve_domains = models.JSONField(
        default=list,
        blank=True,
        help_text="with signup on approval: teams registered from these e-mail domains are approved at once, e.g. "
        '["uni-example.edu"]',
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    progress = models.FloatField(default=1.0, help_text="gold preparation, 0..1")
    status_message = models.TextField(blank=True, help_text="why preparation failed, line by line")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = SharedTaskQuerySet.as_manager()

    class Meta:
        permissions = [("host_tasks", "Can create and host shared tasks")]
        constraints = [at_most_in_database("description", TASK_DESCRIPTION_MAX, "task_description_length")]

    def __str__(self):
        return self.slug

    @property
    def is_ready(self) -> bool:
        return self.status == self.Status.READY

    def scoring_options(self, **phase_options):
        """The options every submission is scored with; a phase adds its GLEU variant."""
        from scoring import ScoringOptions

        return ScoringOptions(
            beta=self.beta, sim=self.sim, gts_ref=self.gts_ref, gts_weighted=self.gts_weighted, **phase_options
        )

    def metric_names(self) -> list[str]:
        from scoring import metric_names

        return metric_names(self.metrics or None)

    def clean(self) -> None:
        """The admin's check (``full_clean``): the metric names and the headline path."""
        super().clean()
        try:
            self.metric_names()
        except ValueError as error:
            raise ValidationError({"metrics": str(error)}) from error
        problem = self.headline_problem()
        if problem:
            raise ValidationError({"headline_metric": problem})

    def headline_problem(self, path: str | None = None) -> str | None:
        """Why ``path`` (by default ``headline_metric``) cannot rank this task's boards, or
        None when it can (empty is the registry's default). A path outside the task's score paths is no slip to
        keep: every value at it is null, so every team ties first. The admin, the host
        form, the API and ``create_task`` all ask this one question."""
        from scoring import headline_scores, valid_paths

        path = self.headline_metric if path is None else path
        if not path:
            return None
        try:
            names = self.metric_names()
        except ValueError as error:
            return str(error)
        if path not in valid_paths(names):
            usual = ", ".join(p.path for p in headline_scores(names))
            return (
                f"{path} is not one of the task's score paths (its metrics: {', '.join(names)}); "
                f"the usual ones are {usual}, and GET /api/tasks/{self.slug}/ lists every one in score_paths"
            )
        if path.startswith("cleme2.sim.") and not self.sim:
            return f"{path} needs similarity-weighted CLEME2.0 (sim) on the task"
        return None

    def check_headline(self) -> None:
        """Raise ``ValueError`` with :meth:`headline_problem`'s reason (services, commands)."""
        problem = self.headline_problem()
        if problem:
            raise ValueError(f"headline metric: {problem}")

    def current_phase(self):
        """The phase meant when none is named (:func:`current_of`); from the task's phases
        when a page prefetched them (its navigation lists them too), else one query."""
        if "phases" in getattr(self, "_prefetched_objects_cache", {}):
            return current_of(sorted(self.phases.all(), key=lambda phase: (phase.starts_at, phase.pk)))
        return current_of(list(self.phases.order_by("starts_at", "pk")))

    def phase_to_submit(self):
        """The phase an upload that names none goes to (:func:`submission_phase_of`)."""
        return submission_phase_of(list(self.phases.order_by("starts_at", "pk")))

    def is_organizer(self, user) -> bool:
        return user.is_authenticated and (user.is_staff or self.organizers.filter(pk=user.pk).exists())


def current_of(phases: list):
    """The phase a page, the API or gec-submit shows when none is named, of a task's
    ``phases`` ordered by (starts_at, pk): the open phase whose results are public (the
    latest to open when several are), else the latest open one, else the latest to have
    started, else the last; None when there are none.

    A dev phase open next to a hidden test phase is thus the default everywhere: nobody
    lands on a board they may not see, nor spends a test submission by leaving the
    phase out (uploads ask :func:`submission_phase_of`, which never guesses a hidden one).
    """
    now = timezone.now()
    open_phases = [p for p in phases if p.is_open(now)]
    public = [p for p in open_phases if p.results_public(now)]
    started = [p for p in phases if p.starts_at <= now]
    return (public or open_phases or started or phases or [None])[-1]


class PhaseNotNamed(Exception):
    """An upload named no phase and more than one could be meant, or only phases whose
    results are hidden are open: the client must name one of ``choices``."""

    def __init__(self, choices: list):
        self.choices = choices
        listed = "; ".join(f"{p.kind} ({p.results_note()})" for p in choices)
        super().__init__(f"name the phase (phase={choices[0].kind}, ...): the open phases are {listed}")


def submission_phase_of(phases: list):
    """The phase an upload naming none goes to: the one open phase whose results are
    public. Raises :class:`PhaseNotNamed` when several such phases are open, or when the
    open phases all hide their results (a hidden test phase is only ever chosen by name).
    With no open phase, :func:`current_of` (the upload is then refused as closed)."""
    now = timezone.now()
    open_phases = [p for p in phases if p.is_open(now)]
    public = [p for p in open_phases if p.results_public(now)]
    if len(public) == 1:
        return public[0]
    if open_phases:
        raise PhaseNotNamed(open_phases)
    return current_of(phases)


def light_dataset(prefix: str = "") -> list[str]:
    """The fields to ``defer`` when a query joins a phase's dataset (``prefix``, e.g.
    ``"phase__dataset__"``) only for its name, size or language: the source, the
    references and the prepared gold are megabytes on a real task, and a status poll that
    joined them spent 20-30 ms moving them. Code that reads one loads it then."""
    return [prefix + name for name in Dataset.HEAVY]


class Dataset(models.Model):
    """Source and references, with the scoring library's prepared form stored once.

    ``prepared`` is ``scoring.Dataset.to_bytes()``: the source parses and reference edits
    (docs/metrics.md), so no submission ever re-parses the references.
    """

    HEAVY = ("source", "references", "prepared")  # what a page that joins the dataset defers (light_dataset)

    task = models.ForeignKey(
        SharedTask,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="datasets",
        help_text="the task whose phases may use this gold (its phases protect it)",
    )
    name = models.CharField(max_length=200)
    source = models.TextField()
    references = models.JSONField(
        help_text='[{"name": ..., "text": ...}] or one M2 file as [{"name": "m2", "text": ...}]'
    )
    from_m2 = models.BooleanField(default=False)
    prepared = models.BinaryField(default=b"", blank=True, help_text="empty while a worker prepares it")
    n_sentences = models.PositiveIntegerField()
    n_references = models.PositiveSmallIntegerField()
    lang = models.CharField(
        max_length=8,
        default="en",
        help_text="ISO 639-1 code: picks the text pipeline and the metrics that can serve it",
    )
    pipeline = models.CharField(
        max_length=16, blank=True, help_text="tokens, lemmas or full; empty = the richest available for the language"
    )
    max_tokens = models.PositiveIntegerField(
        default=5000, help_text="longest accepted line, in tokens (MultiGEC essays reach 1,741)"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name

    def language(self) -> dict:
        """The keyword arguments the scoring library reads this dataset's text with."""
        return {"lang": self.lang, "pipeline": self.pipeline or None}

    def limits(self):
        """The library's limits for this dataset's files: its own per-line tokens, the site's per-file totals."""
        return input_limits(self.max_tokens)

    @property
    def is_prepared(self) -> bool:
        return bool(self.prepared)


class PhaseManager(models.Manager):
    """The task's own phases: the corpus phases of a multi-corpus phase are left out of
    every list (``task.phases``, ``Phase.objects``); ``Phase.every`` has them all."""

    def get_queryset(self):
        return super().get_queryset().filter(parent__isnull=True)


class Phase(models.Model):
    """A period of the task with its own gold, dates, limits and visibility.

    ``kind`` is the phase's short key within its task (``?phase=dev``); "dev" and "test"
    are the usual ones, organizers may add others (``test-2``). State, in order:
    upcoming, open, frozen (closed early by an organizer, undoable), ended.

    A phase holds one corpus (its ``dataset``) or several, as MultiGEC-2025 did (a Czech,
    an Estonian, a Ukrainian corpus... each with its language and its own references).
    Each corpus of a multi-corpus phase is a phase of its own, its ``parent`` the phase
    participants see, named ``corpus``: so its dataset, GoToScorer pool, gold chunks,
    results and heat map are the same rows, scored by the same code, as any phase's. A
    corpus phase takes its dates, visibility and rules from its parent (:meth:`save`).
    """

    class Kind:
        DEV = "dev"
        TEST = "test"

    class Counting(models.TextChoices):
        LATEST = "latest", "the team's latest scored submission"
        BEST = "best", "the team's best on the headline metric"
        CHOSEN = "chosen", "the one the team chooses (else its latest)"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "public while open"
        AFTER_END = "after_end", "after the phase ends"
        ORGANIZERS = "organizers", "organizers only"

    task = models.ForeignKey(SharedTask, on_delete=models.CASCADE, related_name="phases")
    kind = models.SlugField(max_length=100, default=Kind.DEV, help_text="short key, unique in the task: dev, test, ...")
    name = models.CharField(
        max_length=NAME_MAX, blank=True, validators=[visible_name], help_text="shown on pages; empty = the key"
    )
    dataset = models.ForeignKey(
        Dataset,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="phases",
        help_text="the gold; empty for a phase of several corpora",
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="set on a corpus of a multi-corpus phase",
    )
    corpus = models.SlugField(
        max_length=60, blank=True, help_text="the corpus name, e.g. cs-natwebinf: the file name in a zip submission"
    )
    gleu_variant = models.CharField(
        max_length=10,
        choices=[
            ("official", "compute_gleu (official)"),
            ("multigec", "the PyPI gleu tool, as MultiGEC-2025 reported"),
        ],
        default="official",
    )
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="the organizers' time zone: dates are entered and shown in it (and in UTC)",
    )
    results_visibility = models.CharField(max_length=12, choices=Visibility.choices, default=Visibility.PUBLIC)
    max_per_day = models.PositiveIntegerField(null=True, blank=True, help_text="per team per UTC day; empty = no limit")
    max_total = models.PositiveIntegerField(null=True, blank=True, help_text="per team in this phase; empty = no limit")
    max_upload_mb = models.FloatField(null=True, blank=True, help_text="empty = GEC_MAX_UPLOAD_MB")
    blind = models.BooleanField(
        default=False, help_text="while results are hidden, participants see only that a submission was received"
    )
    revealed = models.BooleanField(
        default=False, help_text="an organizer made the results public (undone by hiding them)"
    )
    frozen_at = models.DateTimeField(
        null=True, blank=True, help_text="closed to submissions by an organizer (undone by unfreezing)"
    )
    counting = models.CharField(
        max_length=8,
        choices=Counting.choices,
        default=Counting.LATEST,
        help_text="which submission of a team is on the board and in the pool",
    )
    references_public = models.BooleanField(
        default=False,
        help_text="participants may download the references (never for a test phase: leaderboard.access decides)",
    )

    objects = PhaseManager()
    # the board version: set only on the phases leaderboard.selectors.board reads
    version: int
    every = models.Manager()

    # what a corpus phase takes from its parent
    SHARED = (
        "starts_at",
        "ends_at",
        "time_zone",
        "results_visibility",
        "blind",
        "revealed",
        "frozen_at",
        "counting",
        "gleu_variant",
        "max_per_day",
        "max_total",
        "max_upload_mb",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["task", "kind"], name="one_phase_per_kind")]
        base_manager_name = "every"

    def save(self, *args, **kwargs):
        adding = self._state.adding
        super().save(*args, **kwargs)
        if self.parent_id is None and not adding:
            Phase.every.filter(parent=self).update(**{name: getattr(self, name) for name in self.SHARED})

    def corpora(self) -> list["Phase"]:
        """The phases scored, one per corpus: the corpus phases, or the phase itself (a
        phase with a dataset of its own has no corpora: no query)."""
        if self.dataset_id is not None:
            return [self]
        children = list(
            Phase.every.filter(parent=self)
            .select_related("dataset", "task")
            .defer(*light_dataset("dataset__"))
            .order_by("pk")
        )
        return children or [self]

    @property
    def is_multi_corpus(self) -> bool:
        return self.dataset_id is None

    @property
    def gold(self) -> Dataset:
        """The phase's one corpus, for code that scores or reads a single-corpus phase; a
        phase of several corpora has none, and reading it there is a bug, said plainly."""
        if self.dataset is None:
            raise ValueError(f"phase {self.pk} has several corpora and no single gold")
        return self.dataset

    @property
    def gold_id(self) -> int:
        """The id of :attr:`gold`, read without loading it."""
        if self.dataset_id is None:
            raise ValueError(f"phase {self.pk} has several corpora and no single gold")
        return self.dataset_id

    def scoring_options(self):
        """The task's options with this phase's GLEU variant."""
        return self.task.scoring_options(gleu_variant=self.gleu_variant)

    def unsupported_reason(self, metric: str) -> str | None:
        """Why ``metric`` cannot score this phase's corpus (its language, its pipeline,
        the phase's options), in the registry's words; None when it can."""
        from scoring.registry import unsupported_reason

        return unsupported_reason(metric, **self.gold.language(), options=self.scoring_options())

    @classmethod
    def default_visibility(cls, kind: str) -> str:
        """A test phase (``test``, ``test-2``) hides its results until the organizers reveal
        them, as in a shared task's blind test; any other phase shows them."""
        return cls.Visibility.ORGANIZERS if kind.startswith(cls.Kind.TEST) else cls.Visibility.PUBLIC

    def __str__(self):
        return f"{self.task.slug}/{self.kind}"

    @property
    def title(self) -> str:
        return self.name or self.kind

    def state(self, now=None) -> str:
        """One of "upcoming", "open", "frozen" (closed by an organizer) or "ended"."""
        now = now or timezone.now()
        if self.has_ended(now):
            return "ended"
        if self.frozen_at is not None:
            return "frozen"
        return "open" if self.starts_at <= now else "upcoming"

    def is_open(self, now=None) -> bool:
        return self.state(now) == "open"

    def has_ended(self, now=None) -> bool:
        return self.ends_at is not None and (now or timezone.now()) >= self.ends_at

    def max_upload_bytes(self) -> int:
        megabytes = self.max_upload_mb if self.max_upload_mb is not None else settings.GEC_MAX_UPLOAD_MB
        return int(megabytes * 1024 * 1024)

    @property
    def is_test(self) -> bool:
        """A blind test: a ``test`` key, or results that are not public while it is open."""
        return self.kind.startswith(self.Kind.TEST) or self.results_visibility != self.Visibility.PUBLIC

    def results_note(self) -> str:
        """How the results are shown, in a few words (pages and errors that list phases)."""
        if self.results_public():
            return "results public"
        if self.results_visibility == self.Visibility.AFTER_END:
            return "results hidden until the phase ends"
        return "results hidden until the organizers reveal them"

    def results_public(self, now=None) -> bool:
        """Visible to everyone: no need to know who asks (nor to load the session)."""
        if self.results_visibility == self.Visibility.PUBLIC or self.revealed:
            return True
        return self.results_visibility == self.Visibility.AFTER_END and self.has_ended(now)
