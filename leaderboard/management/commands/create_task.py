"""``manage.py create_task <slug> --source F (--ref F ... | --m2 F) [--title T]`` (docs/contracts.md section 4).

``--phase test`` makes a hidden test phase (results for organizers until revealed);
``--add-phase`` adds a phase to an existing task, on new gold or on the task's first.
``--corpora DIR`` makes a phase of several corpora from a folder laid out as a gold
bundle (one folder per corpus, each with its language: docs/multigec.md), or from the
bundle's zip, read as the host form reads it (a damaged zip is a ``bad input`` naming it).
``--headline`` and ``--gleu-variant`` default as the host form's automatic choice does:
MultiGEC-2025's (ranked by GLEU, its GLEU tool) for corpora, else the official GLEU.
"""

import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.dateparse import parse_datetime

import scoring

from ...models import Phase, SharedTask
from ...services.data.corpora import read_corpora_dir, unpack_corpora
from ...services.data.datasets import prepare_stored
from ...services.hosting.host import add_corpus_phase, store_corpora
from ...services.hosting.task_creation import add_phase, create_task, prepare_gold_files, task_defaults


class Command(BaseCommand):
    help = "Create a shared task with one phase, or add a phase to one (--add-phase); gold is parsed once and stored."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--source", type=Path)
        parser.add_argument("--ref", type=Path, action="append", default=[])
        parser.add_argument("--m2", type=Path)
        parser.add_argument(
            "--corpora",
            type=Path,
            help="instead of --source/--ref/--m2: a folder (or a zip) with one folder per corpus (source.txt, "
            "ref*.txt, corpus.json)",
        )
        parser.add_argument("--title", default="")
        parser.add_argument("--description", default="")
        parser.add_argument("--tokenize", action="store_true", help="input is raw text: run the spaCy tokenizer")
        parser.add_argument("--metrics", default="", help="comma-separated; default: every registered metric")
        parser.add_argument("--gts-ref", type=int, default=0, help="GoToScorer reference annotator")
        parser.add_argument(
            "--headline",
            default="",
            help="the score path the boards rank by and 'best' means, one of the task's score paths "
            "(default: gleu.score for --corpora when GLEU is scored, as MultiGEC-2025 ranked; else the registry's)",
        )
        parser.add_argument(
            "--gleu-variant",
            choices=[value for value, _ in SharedTask._meta.get_field("gleu_variant").choices],
            default="",
            help="the GLEU the phase is scored with (default: multigec for --corpora, official else; "
            "with --add-phase, the task's)",
        )
        parser.add_argument("--phase", default="dev", help="the phase's key: dev, test, test-2, ... (default dev)")
        parser.add_argument("--name", default="", help="the phase's display name (default: its key)")
        parser.add_argument(
            "--add-phase",
            action="store_true",
            help="add the phase to an existing task; without gold files it reuses the task's first gold",
        )
        parser.add_argument("--starts", type=when, help="ISO date-time; UTC unless it has an offset (default now)")
        parser.add_argument("--ends", type=when, help="ISO date-time; UTC unless it has an offset")
        parser.add_argument(
            "--visibility",
            choices=Phase.Visibility.values,
            help="results: public, after_end or organizers (default: organizers for a test phase, else public)",
        )
        parser.add_argument(
            "--blind", action="store_true", help="while hidden, participants see only that a file was received"
        )
        parser.add_argument("--max-per-day", type=int, help="submissions per team per UTC day")
        parser.add_argument("--max-total", type=int, help="submissions per team in the phase")
        parser.add_argument("--counting", choices=Phase.Counting.values, default=Phase.Counting.LATEST)

    def handle(self, slug, source, ref, m2, add_phase, phase, corpora, **options):
        if corpora:
            if source or ref or m2:
                raise CommandError("give --corpora alone, or --source with --ref, or --m2")
            return self.corpus_phase(slug, corpora, phase, add_phase, options)
        has_gold = bool(m2) or bool(source and ref)
        if (m2 and (source or ref)) or (not has_gold and not add_phase) or (bool(source) != bool(ref)):
            raise CommandError(
                "give --source with --ref (one or more), or --m2"
                + (" (or neither, to reuse the task's gold)" if add_phase else "")
            )
        if add_phase and options["headline"]:
            raise CommandError("--headline is the task's: give it when the task is created, not with --add-phase")
        fields = phase_fields(phase, options)
        gold = {
            "source": read(source) if source else None,
            "references": [(p.stem, read(p)) for p in ref],
            "m2": read(m2) if m2 else None,
        }
        try:
            if add_phase:
                created = self.add_phase(slug, phase, fields, gold if has_gold else None, options["gleu_variant"])
            else:
                if SharedTask.objects.filter(slug=slug).exists():
                    raise CommandError(f"task {slug} exists; add a phase with --add-phase --phase KEY")
                task = create_task(
                    slug,
                    title=options["title"],
                    description=options["description"],
                    tokenize=options["tokenize"],
                    gts_ref=options["gts_ref"],
                    metrics=metric_list(options),
                    kind=phase,
                    **task_choices(options, bundle=False),
                    **gold,
                    **fields,
                )
                created = task.phases.get()
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}") from error
        except ValueError as error:
            raise CommandError(str(error)) from error
        task, dataset = created.task, created.dataset
        self.stdout.write(
            f"{'added phase ' + created.kind + ' to' if add_phase else 'created'} task {task.slug}: "
            f"{dataset.n_sentences} sentences, "
            f"{dataset.n_references} reference(s), metrics {', '.join(task.metric_names())}; phase "
            f"{created.kind}: results {created.results_visibility}"
            + (", blind" if created.blind else "")
            + (f", ends {created.ends_at:%Y-%m-%d %H:%M} UTC" if created.ends_at else "")
        )

    def corpus_phase(self, slug, folder, kind, add_phase, options):
        """A phase of the corpora in ``folder``, each prepared now with its language."""
        task = SharedTask.objects.filter(slug=slug).first()
        if (task is None) == add_phase:
            raise CommandError(
                f"no task {slug}; create it first (without --add-phase)"
                if add_phase
                else f"task {slug} exists; add a phase with --add-phase --phase KEY"
            )
        if task is not None and task.phases.filter(kind=kind).exists():
            raise CommandError(f"task {slug} already has a phase {kind}; choose another --phase key (e.g. {kind}-2)")
        if add_phase and options["headline"]:
            raise CommandError("--headline is the task's: give it when the task is created, not with --add-phase")
        try:
            gold = unpack_corpora(folder.name, folder.read_bytes()) if folder.is_file() else read_corpora_dir(folder)
            with transaction.atomic():
                if task is None:
                    task = SharedTask.objects.create(
                        slug=slug,
                        title=options["title"] or slug,
                        description=options["description"],
                        tokenize=options["tokenize"],
                        gts_ref=options["gts_ref"],
                        metrics=metric_list(options) or [],
                        **task_choices(options, bundle=True),
                    )
                    task.metric_names()  # rejects unknown metric names before anything is kept
                    task.check_headline()
                datasets = store_corpora(
                    task, gold, prepare=lambda dataset: prepare_stored(dataset, tokenize=task.tokenize)
                )
                gleu = options["gleu_variant"] or task.gleu_variant or "multigec"  # corpora: MultiGEC's shape
                created = add_corpus_phase(task, datasets, kind=kind, gleu_variant=gleu, **phase_fields(kind, options))
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}") from error
        except ValueError as error:
            raise CommandError(str(error)) from error
        corpora = ", ".join(f"{d.name} ({d.lang}, {d.n_sentences} lines, {d.n_references} ref.)" for d in datasets)
        self.stdout.write(f"task {task.slug}: phase {created.kind} of {len(datasets)} corpora: {corpora}")

    def add_phase(self, slug, kind, fields, gold, gleu_variant: str):
        task = SharedTask.objects.filter(slug=slug).first()
        if task is None:
            raise CommandError(f"no task {slug}; create it first (without --add-phase)")
        if task.phases.filter(kind=kind).exists():
            raise CommandError(f"task {slug} already has a phase {kind}; choose another --phase key (e.g. {kind}-2)")
        if gold is None:
            first_phase = task.phases.order_by("pk").first()
            dataset = task.datasets.order_by("pk").first() or (first_phase.dataset if first_phase else None)
            if dataset is None:
                raise CommandError(f"task {slug} has no gold to reuse; give the phase's gold files")
        else:
            dataset = prepare_gold_files(f"{slug} {kind}", tokenize=task.tokenize, **gold)
        gleu = gleu_variant or task.gleu_variant or "official"
        with transaction.atomic():
            return add_phase(task, dataset, kind=kind, gleu_variant=gleu, **fields)


def metric_list(options: dict) -> list[str] | None:
    return [m.strip() for m in options["metrics"].split(",") if m.strip()] or None


def task_choices(options: dict, *, bundle: bool) -> dict:
    """The task's headline and GLEU: as given, else the defaults docs/multigec.md states
    (MultiGEC-2025's for a bundle of corpora)."""
    defaults = task_defaults(bundle=bundle, metrics=metric_list(options))
    return {
        "headline_metric": options["headline"] or defaults["headline_metric"],
        "gleu_variant": options["gleu_variant"] or defaults["gleu_variant"],
    }


def phase_fields(kind: str, options: dict) -> dict:
    visibility = options["visibility"] or Phase.default_visibility(kind)
    fields = {
        "name": options["name"],
        "ends_at": options["ends"],
        "results_visibility": visibility,
        "blind": options["blind"],
        "max_per_day": options["max_per_day"],
        "max_total": options["max_total"],
        "counting": options["counting"],
    }
    if options["starts"]:
        fields["starts_at"] = options["starts"]
    if fields["ends_at"] and options["starts"] and fields["ends_at"] <= options["starts"]:
        raise CommandError("--ends must come after --starts")
    return fields


def when(text: str) -> dt.datetime:
    """An ISO date or date-time; UTC unless it carries an offset."""
    value = parse_datetime(text) or parse_datetime(text + "T00:00")
    if value is None:
        raise ValueError(f"not an ISO date-time: {text}")
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{path}: {error}") from error
