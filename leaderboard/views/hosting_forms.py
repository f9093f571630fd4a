"""The organizer's forms: a task with its gold, and a phase with dates in a time zone."""
from __future__ import annotations

import datetime as dt
import zoneinfo

from django import forms

import scoring

from ..models import Phase, SharedTask
from ..services.gold import check_gold, unpack_bundle
from .time_zones import zone_choices


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented pattern)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        return [single(d, initial) for d in data] if isinstance(data, list | tuple) else ([single(data, initial)] if data else [])


class GoldFields(forms.Form):
    """Gold as files: a source with references, one M2 file, or a zip of either.
    ``problems`` keeps the readers' line-numbered problems for the page."""

    source = forms.FileField(required=False, help_text="one sentence per line, UTF-8")
    references = MultipleFileField(required=False, help_text="one or more files, line i corrects source line i")
    m2 = forms.FileField(required=False, label="M2 file", help_text="instead of source and references: each annotator is a reference")
    bundle = forms.FileField(required=False, label="or a zip bundle", help_text="source.txt with reference .txt files, or one .m2 file")

    problems: list = ()

    def has_gold_files(self) -> bool:
        return any(self.files.get(name) for name in ("source", "references", "m2", "bundle"))

    def clean_gold(self, max_tokens: int = 1000):
        """The checked :class:`~leaderboard.services.gold.Gold`, or None with the problems kept."""
        data = self.cleaned_data
        try:
            if data.get("bundle"):
                if data.get("source") or data.get("references") or data.get("m2"):
                    raise scoring.InputError([scoring.Problem(0, "give the zip bundle alone, or the files alone")])
                files = unpack_bundle(data["bundle"].name, data["bundle"].read())
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


class TaskForm(GoldFields):
    title = forms.CharField(max_length=200)
    slug = forms.SlugField(max_length=50, help_text="the task's address: /tasks/<slug>/")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False)
    tokenize = forms.BooleanField(required=False, help_text="the input is raw text: run the spaCy tokenizer (else it is already tokenized)")
    metrics = forms.MultipleChoiceField(choices=[(m, m) for m in scoring.REGISTRY], widget=forms.CheckboxSelectMultiple, initial=list(scoring.REGISTRY))
    sim = forms.BooleanField(required=False, label="Similarity-weighted CLEME2.0", help_text="adds CLEME2.0 with BERTScore weights (slower scoring)")
    tracks = forms.CharField(required=False, help_text="comma-separated, e.g. restricted, unrestricted; empty = no tracks")
    headline_metric = forms.ChoiceField(required=False, choices=[("", "the default")] + [(path, f"{label} ({path})") for label, path in scoring.HEADLINE_SCORES])

    field_order = ["title", "slug", "description", "source", "references", "m2", "bundle", "tokenize", "metrics", "sim", "tracks", "headline_metric"]

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if SharedTask.objects.filter(slug=slug).exists():
            raise forms.ValidationError(f"a task {slug} exists already; choose another address")
        return slug

    def clean_tracks(self):
        return [t.strip() for t in self.cleaned_data["tracks"].split(",") if t.strip()]

    def clean(self):
        data = super().clean()
        headline = data.get("headline_metric")
        if headline and headline.split(".")[0] not in data.get("metrics", []):
            self.add_error("headline_metric", f"{headline} is not among the chosen metrics")
        elif headline.startswith("cleme2.sim.") and not data.get("sim"):
            self.add_error("headline_metric", f"{headline} needs similarity-weighted CLEME2.0")
        if not self.errors:
            data["gold"] = self.clean_gold()
        return data

    def task_fields(self) -> dict:
        return {k: self.cleaned_data[k] for k in ("title", "slug", "description", "tokenize", "metrics", "sim", "tracks", "headline_metric")}


LOCAL_DATETIME = "%Y-%m-%dT%H:%M"


class PhaseForm(GoldFields, forms.ModelForm):
    """Dates are entered in ``time_zone`` and stored in UTC. A new phase takes one of the
    task's gold sets or new gold files; an existing phase keeps its gold and its key. A new
    phase is offered the next usual key (dev, then test) with that key's default results."""

    time_zone = forms.ChoiceField(choices=zone_choices, initial="UTC", help_text="the dates below are in this zone (Etc/GMT+12 is 'anywhere on Earth')")
    reuse = forms.ModelChoiceField(queryset=None, required=False, label="Gold", empty_label="new gold from the files below")

    class Meta:
        model = Phase
        fields = ["kind", "name", "time_zone", "starts_at", "ends_at", "max_per_day", "max_total", "max_upload_mb", "results_visibility", "blind", "counting"]
        labels = {"kind": "Key", "results_visibility": "Results", "max_upload_mb": "Max upload (MB)"}
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_DATETIME),
            "ends_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_DATETIME),
        }

    field_order = ["kind", "name", "reuse", "source", "references", "m2", "bundle"]

    def __init__(self, *args, task: SharedTask, **kwargs):
        super().__init__(*args, **kwargs)
        self.task = task
        self.fields["time_zone"].choices = zone_choices(self.instance.time_zone if self.instance.pk else "")
        if self.instance.pk:
            for name in ("reuse", "source", "references", "m2", "bundle"):
                del self.fields[name]
            self.fields["kind"].disabled = True
            zone = zoneinfo.ZoneInfo(self.instance.time_zone or "UTC")
            for name in ("starts_at", "ends_at"):
                value = getattr(self.instance, name)
                self.initial[name] = value.astimezone(zone).strftime(LOCAL_DATETIME) if value else None
        else:
            datasets = task.datasets.order_by("pk")
            self.fields["reuse"].queryset = datasets
            self.fields["reuse"].label_from_instance = lambda d: f"{d.name}: {d.n_sentences} sentences, {d.n_references} reference(s)"
            self.initial.setdefault("reuse", datasets.first())
            self.fields["starts_at"].required = False
            self.fields["starts_at"].help_text = "empty = now"
            self.initial["starts_at"] = None  # not the model's UTC "now", which would move with the time zone chosen
            taken = set(task.phases.values_list("kind", flat=True))
            kind = next((k for k in (Phase.Kind.DEV, Phase.Kind.TEST) if k not in taken), "")
            self.initial.setdefault("kind", kind)
            self.initial.setdefault("results_visibility", Phase.default_visibility(kind))

    def clean_kind(self):
        kind = self.cleaned_data["kind"]
        if self.task.phases.filter(kind=kind).exclude(pk=self.instance.pk).exists():
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
        if not self.instance.pk and not self.errors:
            if data.get("reuse") and self.has_gold_files():
                self.add_error("reuse", "choose existing gold or upload new files, not both")
            elif not data.get("reuse") and not self.has_gold_files():
                self.add_error("reuse", "choose the task's gold or upload new gold files")
            elif not data.get("reuse"):
                data["gold"] = self.clean_gold(self.task.max_tokens)
        return data

    def phase_fields(self) -> dict:
        fields = [f for f in self.Meta.fields if not (f == "kind" and self.instance.pk)]
        return {name: self.cleaned_data[name] for name in fields}
