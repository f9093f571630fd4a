"""The organizer's forms: a task with its gold, and a phase with dates in a time zone."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import cast

from django import forms

import scoring

from ..models import Dataset, Phase, SharedTask, TaskPage
from ..models.text import TASK_DESCRIPTION_MAX, TITLE_MAX, at_most, valid_tracks, visible_name
from ..sanitise import MAX_PAGE_CHARS
from ..selectors.shared_tasks import datasets_of, has_corpus_phases, has_phases, phase_key_taken, phase_keys, slug_taken
from ..services.data.corpora import is_corpora_bundle, unpack_corpora
from ..services.data.gold import check_gold, unpack_bundle
from ..services.hosting.task_creation import task_defaults
from ..services.teams.actions import TeamError, clean_domains
from .time_zones import zone_choices

GLEU_VARIANTS = cast(list[tuple[str, str]], Phase._meta.get_field("gleu_variant").choices)  # flat (value, label)


def default_gleu(task: SharedTask, *, bundled: bool) -> str:
    """The GLEU a new phase of ``task`` is offered: the task's (chosen when it was hosted);
    for a task without one, MultiGEC's where its corpora came from a bundle (``bundled``:
    the form offers them, or a phase of corpora exists), else the official one."""
    if task.gleu_variant:
        return task.gleu_variant
    return "multigec" if bundled or has_corpus_phases(task) else "official"


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented pattern)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        return (
            [single(d, initial) for d in data]
            if isinstance(data, list | tuple)
            else ([single(data, initial)] if data else [])
        )


class GoldFields(forms.Form):
    """Gold as files: a source with references, one M2 file, or a zip of either.
    ``problems`` keeps the readers' line-numbered problems for the page."""

    source = forms.FileField(required=False, help_text="one sentence per line, UTF-8")
    references = MultipleFileField(required=False, help_text="one or more files, line i corrects source line i")
    m2 = forms.FileField(
        required=False, label="M2 file", help_text="instead of source and references: each annotator is a reference"
    )
    bundle = forms.FileField(
        required=False,
        label="or a zip bundle",
        help_text="source.txt with reference .txt files, or one .m2 file; or one folder per corpus "
        "(cs-natwebinf/source.txt, ref1.txt, corpus.json) for a phase of several corpora",
    )

    language = forms.ChoiceField(
        choices=[(code, code) for code in scoring.languages()],
        initial="en",
        required=False,
        help_text="ISO 639-1 code of the gold's language (a bundle of corpora gives each corpus its own)",
    )
    pipeline = forms.ChoiceField(
        choices=[
            ("", "the richest for the language"),
            ("tokens", "tokens (as MultiGEC-2025 scored)"),
            ("lemmas", "lemmas"),
            ("full", "full spaCy model"),
        ],
        required=False,
    )
    max_tokens = forms.IntegerField(
        min_value=1,
        max_value=scoring.MAX_LINE_TOKENS,
        initial=scoring.MAX_LINE_TOKENS,
        required=False,
        label="Longest line (tokens)",
        help_text=f"at most {scoring.MAX_LINE_TOKENS:,}, the longest line every metric is bounded on; MultiGEC essays "
        "reach 1,741 tokens a line",
    )

    problems: list | tuple = ()

    def gold_language(self) -> dict:
        """The language settings of gold given as files: ``lang``, ``pipeline``, ``max_tokens``."""
        data = self.cleaned_data
        return {
            "lang": data.get("language") or "en",
            "pipeline": data.get("pipeline") or "",
            "max_tokens": data.get("max_tokens") or 5000,
        }

    def check_pipeline(self) -> None:
        lang, pipeline = self.gold_language()["lang"], self.gold_language()["pipeline"]
        if pipeline and pipeline not in scoring.available_pipelines(lang):
            self.add_error("pipeline", f"{lang} has the pipelines {', '.join(scoring.available_pipelines(lang))}")

    def has_gold_files(self) -> bool:
        return any(self.files.get(name) for name in ("source", "references", "m2", "bundle"))

    def clean_gold(self, max_tokens: int = 1000):
        """The checked :class:`~leaderboard.services.data.gold.Gold` (a list of
        :class:`~leaderboard.services.data.corpora.CorpusGold` for a bundle of corpora), or
        None with the problems kept."""
        data = self.cleaned_data
        try:
            if data.get("bundle"):
                if data.get("source") or data.get("references") or data.get("m2"):
                    raise scoring.InputError([scoring.Problem(0, "give the zip bundle alone, or the files alone")])
                content = data["bundle"].read()
                if is_corpora_bundle(content):
                    return unpack_corpora(data["bundle"].name, content)
                files = unpack_bundle(data["bundle"].name, content)
            else:
                files = {
                    "source": (data["source"].name, data["source"].read()) if data.get("source") else None,
                    "references": [(f.name, f.read()) for f in data.get("references") or []],
                    "m2": (data["m2"].name, data["m2"].read()) if data.get("m2") else None,
                }
            return check_gold(**files, max_tokens=max_tokens)
        except scoring.InputError as error:
            self.problems = error.problems
            self.add_error(None, "The gold files were not accepted; every problem is listed below.")
            return None


TEAM_SIZE = SharedTask._meta.get_field("max_team_size")


class TeamSizeForm(forms.Form):
    max_team_size = TEAM_SIZE.formfield(
        required=False, label="Team size", help_text=f"the most members a team may have (empty: {TEAM_SIZE.default})"
    )

    def clean_max_team_size(self):
        size = self.cleaned_data["max_team_size"]
        return TEAM_SIZE.default if size is None else size


class TaskForm(GoldFields, TeamSizeForm):
    title = forms.CharField(max_length=TITLE_MAX, validators=[visible_name])
    slug = forms.SlugField(max_length=50, help_text="the task's address: /tasks/<slug>/")
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": TASK_DESCRIPTION_MAX}),
        required=False,
        validators=[at_most(TASK_DESCRIPTION_MAX)],
    )
    tokenize = forms.BooleanField(
        required=False, help_text="the input is raw text: run the spaCy tokenizer (else it is already tokenized)"
    )
    metrics = forms.MultipleChoiceField(
        choices=[(m, m) for m in scoring.REGISTRY],
        widget=forms.CheckboxSelectMultiple,
        initial=scoring.metric_names(),  # the language-model metrics need the operator's model: ticked by hand
        help_text="Scribendi (and any language-model metric) runs the model the site's operator set up "
        "(GEC_LM_MODEL); a reference-free column, never the default ranking",
    )
    sim = forms.BooleanField(
        required=False,
        label="Similarity-weighted CLEME2.0",
        help_text="adds CLEME2.0 with BERTScore weights (slower scoring)",
    )
    tracks = forms.CharField(
        required=False, help_text="comma-separated, e.g. restricted, unrestricted; empty = no tracks"
    )
    headline_metric = forms.ChoiceField(
        required=False,
        choices=[("", "the default")] + [(path, f"{label} ({path})") for label, path in scoring.HEADLINE_SCORES],
    )
    gleu_variant = forms.ChoiceField(
        required=False,
        label="GLEU",
        choices=[("", "automatic: as MultiGEC-2025 reported it for a bundle of corpora, else the official")]
        + GLEU_VARIANTS,
        help_text="the GLEU the task's phases take unless a phase's form says otherwise",
    )

    field_order = [
        "title",
        "slug",
        "description",
        "source",
        "references",
        "m2",
        "bundle",
        "language",
        "pipeline",
        "max_tokens",
        "tokenize",
        "metrics",
        "sim",
        "tracks",
        "headline_metric",
        "gleu_variant",
        "max_team_size",
    ]

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if slug_taken(slug):
            raise forms.ValidationError(f"a task {slug} exists already; choose another address")
        return slug

    def clean_tracks(self):
        tracks = [t.strip() for t in self.cleaned_data["tracks"].split(",") if t.strip()]
        valid_tracks(tracks)
        return tracks

    def clean(self):
        data = super().clean()
        if "headline_metric" in data and data.get("metrics"):
            chosen = SharedTask(
                slug=data.get("slug") or "",
                metrics=data["metrics"],
                sim=bool(data.get("sim")),
                headline_metric=data["headline_metric"],
            )
            problem = chosen.headline_problem()  # the model's own check, as the admin, the API and create_task ask it
            if problem:
                self.add_error("headline_metric", problem)
        if not self.errors:
            self.check_pipeline()
            data["gold"] = self.clean_gold(self.gold_language()["max_tokens"])
        return data

    def task_fields(self) -> dict:
        fields = {
            k: self.cleaned_data[k]
            for k in (
                "title",
                "slug",
                "description",
                "tokenize",
                "metrics",
                "sim",
                "tracks",
                "headline_metric",
                "max_team_size",
            )
        }
        bundle = isinstance(self.cleaned_data.get("gold"), list)  # a bundle of corpora: MultiGEC's shape
        defaults = task_defaults(bundle=bundle, metrics=fields["metrics"])
        return {
            **fields,
            "headline_metric": fields["headline_metric"] or defaults["headline_metric"],
            "gleu_variant": self.cleaned_data.get("gleu_variant") or defaults["gleu_variant"],
        }


LOCAL_DATETIME = "%Y-%m-%dT%H:%M"


class PhaseForm(GoldFields, forms.ModelForm):
    """Dates are entered in ``time_zone`` and stored in UTC. A new phase takes one of the
    task's gold sets or new gold files; an existing phase keeps its gold and its key. A new
    phase is offered the next usual key (dev, then test) with that key's default results."""

    time_zone = forms.ChoiceField(
        choices=zone_choices,
        initial="UTC",
        help_text="the dates below are in this zone (Etc/GMT+12 is 'anywhere on Earth')",
    )
    reuse: forms.ModelChoiceField[Dataset] = forms.ModelChoiceField(
        queryset=None, required=False, label="Gold", empty_label="new gold from the files below"
    )
    gleu_variant = forms.ChoiceField(
        choices=GLEU_VARIANTS,
        required=False,
        initial="official",
        label="GLEU",
        help_text="the official compute_gleu, or the PyPI gleu tool as MultiGEC-2025 reported it (the task's choice by "
        "default)",
    )
    corpora: forms.ModelMultipleChoiceField[Dataset] = forms.ModelMultipleChoiceField(
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Or several corpora",
        help_text="two or more of the task's gold sets, each a corpus of this phase "
        "(scored and shown apart, with their "
        "macro average)",
    )

    class Meta:
        model = Phase
        fields = [
            "kind",
            "name",
            "time_zone",
            "starts_at",
            "ends_at",
            "max_per_day",
            "max_total",
            "max_upload_mb",
            "results_visibility",
            "blind",
            "counting",
            "gleu_variant",
            "references_public",
        ]
        labels = {
            "kind": "Key",
            "results_visibility": "Results",
            "max_upload_mb": "Max upload (MB)",
            "references_public": "Publish the references",
        }
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_DATETIME),
            "ends_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_DATETIME),
        }

    field_order = [
        "kind",
        "name",
        "reuse",
        "corpora",
        "source",
        "references",
        "m2",
        "bundle",
        "language",
        "pipeline",
        "max_tokens",
    ]

    def __init__(self, *args, task: SharedTask, **kwargs):
        super().__init__(*args, **kwargs)
        self.task = task
        cast(forms.ChoiceField, self.fields["time_zone"]).choices = zone_choices(
            self.instance.time_zone if self.instance.pk else ""
        )
        if self.instance.pk:
            for name in (
                "reuse",
                "corpora",
                "source",
                "references",
                "m2",
                "bundle",
                "language",
                "pipeline",
                "max_tokens",
            ):
                del self.fields[name]
            self.fields["kind"].disabled = True
            zone = zoneinfo.ZoneInfo(self.instance.time_zone or "UTC")
            for name in ("starts_at", "ends_at"):
                value = getattr(self.instance, name)
                self.initial[name] = value.astimezone(zone).strftime(LOCAL_DATETIME) if value else None
        else:
            datasets = datasets_of(task)
            reuse = cast(forms.ModelChoiceField, self.fields["reuse"])
            reuse.queryset = datasets
            # each field's own label: Django reads label_from_instance per instance, so an assigned function works
            reuse.label_from_instance = (  # type: ignore[method-assign]
                lambda obj: f"{obj.name}: {obj.n_sentences} sentences, {obj.n_references} reference(s)"
            )
            corpora = cast(forms.ModelMultipleChoiceField, self.fields["corpora"])
            corpora.queryset = datasets
            corpora.label_from_instance = (  # type: ignore[method-assign]
                lambda obj: f"{obj.name} ({obj.lang}): {obj.n_sentences} lines, {obj.n_references} reference(s)"
            )
            if datasets.count() > 1 and not has_phases(task):  # a task made from a bundle of corpora
                self.initial.setdefault("corpora", list(datasets))
            else:
                self.initial.setdefault("reuse", datasets.first())
            self.fields["starts_at"].required = False
            self.fields["starts_at"].help_text = "empty = now"
            self.initial["starts_at"] = None  # not the model's UTC "now", which would move with the time zone chosen
            taken = phase_keys(task)
            kind = next((k for k in (Phase.Kind.DEV, Phase.Kind.TEST) if k not in taken), "")
            self.initial.setdefault("kind", kind)
            self.initial.setdefault("results_visibility", Phase.default_visibility(kind))
            self.initial.setdefault("gleu_variant", default_gleu(task, bundled="corpora" in self.initial))

    def clean_gleu_variant(self):
        if self.cleaned_data["gleu_variant"]:
            return self.cleaned_data["gleu_variant"]
        return (
            self.instance.gleu_variant
            if self.instance.pk
            else default_gleu(self.task, bundled=bool(self.cleaned_data.get("corpora")))
        )

    def clean_kind(self):
        kind = self.cleaned_data["kind"]
        if phase_key_taken(self.task, kind, other_than=self.instance.pk):
            raise forms.ValidationError(f"this task has a phase {kind} already; choose another key (e.g. {kind}-2)")
        return kind

    def clean(self):
        data = super().clean()
        zone = zoneinfo.ZoneInfo(data.get("time_zone") or "UTC")
        for name in ("starts_at", "ends_at"):  # the form read them as UTC wall-clock times
            if data.get(name):
                data[name] = data[name].replace(tzinfo=zone).astimezone(dt.UTC)
        if not self.instance.pk and not data.get("starts_at"):
            data["starts_at"] = dt.datetime.now(dt.UTC)
        if data.get("starts_at") and data.get("ends_at") and data["ends_at"] <= data["starts_at"]:
            self.add_error("ends_at", "the phase must end after it starts")
        if (
            data.get("references_public")
            and Phase(kind=data.get("kind") or "", results_visibility=data.get("results_visibility")).is_test
        ):
            self.add_error(
                "references_public",
                "a test phase (a test key, or results not public while open) never publishes its references",
            )
        if not self.instance.pk and not self.errors:
            self.clean_gold_choice(data)
        return data

    def clean_gold_choice(self, data: dict) -> None:
        """A new phase takes exactly one gold: the task's, several corpora, or new files."""
        chosen = [bool(data.get("reuse")), bool(data.get("corpora")), self.has_gold_files()]
        if sum(chosen) > 1:
            self.add_error("reuse", "choose the task's gold, several corpora or new gold files: one of them")
        elif not any(chosen):
            self.add_error("reuse", "choose the task's gold or upload new gold files")
        elif data.get("corpora") and len(data["corpora"]) < 2:
            self.add_error("corpora", "choose two corpora or more (one corpus is the Gold above)")
        elif self.has_gold_files():
            self.check_pipeline()
            data["gold"] = self.clean_gold(self.gold_language()["max_tokens"])

    def phase_fields(self) -> dict:
        fields = [f for f in self.Meta.fields if not (f == "kind" and self.instance.pk)]
        return {name: self.cleaned_data[name] for name in fields}


class PagesForm(forms.Form):
    """The task's four pages in Markdown; an empty one is no tab."""

    overview = forms.CharField(
        required=False,
        max_length=MAX_PAGE_CHARS,
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text="what the task is, dates, contacts",
    )
    # the metaclass moves fields off the class, so this does not shadow BaseForm.data; the stubs cannot tell
    data = forms.CharField(  # type: ignore[assignment]
        required=False,
        max_length=MAX_PAGE_CHARS,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="the corpora and their licences; the phases' download links are listed below it",
    )
    evaluation = forms.CharField(
        required=False,
        max_length=MAX_PAGE_CHARS,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="metrics and ranking",
    )
    terms = forms.CharField(
        required=False,
        max_length=MAX_PAGE_CHARS,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text="participants accept these before their first submission; changing them asks everyone again",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in TaskPage.Name.choices:
            self.fields[name].label = label


class ApprovalForm(forms.Form):
    signup = forms.ChoiceField(choices=SharedTask.Signup.choices, label="Registration")
    domains = forms.CharField(
        required=False,
        label="Auto-approved e-mail domains",
        help_text="teams registered from these domains need no approval, e.g. uni-example.edu",
    )

    def clean_domains(self):
        try:
            return clean_domains(self.cleaned_data["domains"])
        except TeamError as error:
            raise forms.ValidationError(str(error)) from None
