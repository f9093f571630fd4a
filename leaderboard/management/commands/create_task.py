"""``manage.py create_task <slug> --source F (--ref F ... | --m2 F) [--title T]`` (CONTRACTS.md section 4)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import scoring

from ...services.tasks import create_task


class Command(BaseCommand):
    help = "Create a shared task with one phase; the references are parsed once and stored."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--source", type=Path)
        parser.add_argument("--ref", type=Path, action="append", default=[])
        parser.add_argument("--m2", type=Path)
        parser.add_argument("--title", default="")
        parser.add_argument("--description", default="")
        parser.add_argument("--tokenize", action="store_true", help="input is raw text: run the spaCy tokenizer")
        parser.add_argument("--metrics", default="", help="comma-separated; default: every registered metric")
        parser.add_argument("--gts-ref", type=int, default=0, help="GoToScorer reference annotator")
        parser.add_argument("--phase", default="dev", choices=["dev", "test"])

    def handle(self, slug, source, ref, m2, title, description, tokenize, metrics, gts_ref, phase, **_):
        if bool(m2) == bool(source and ref):
            raise CommandError("give --source with --ref (one or more), or --m2")
        try:
            task = create_task(
                slug, title=title, description=description, tokenize=tokenize, gts_ref=gts_ref, kind=phase,
                metrics=[m for m in metrics.split(",") if m.strip()] or None,
                source=read(source) if source else None,
                references=[(p.stem, read(p)) for p in ref],
                m2=read(m2) if m2 else None,
            )
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}") from error
        except ValueError as error:
            raise CommandError(str(error)) from error
        phase = task.phases.get()
        self.stdout.write(f"created task {task.slug}: {phase.dataset.n_sentences} sentences, {phase.dataset.n_references} reference(s), metrics {', '.join(task.metric_names())}")


def read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{path}: {error}") from error
