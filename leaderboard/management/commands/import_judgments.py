"""``manage.py import_judgments <slug> [--phase KEY] --campaign NAME [--replace] FILE.xml|FILE.csv``.

Judgments made elsewhere into a human evaluation campaign of the phase, created when the
task has none of that name: rankings in Appraise's XML (as SEEDA ships them), or ratings
as CSV (``annotator,item,system,scale,value``, a file named ``*.csv``), as the campaign
page's import takes them. The file's system names are the phase's submissions' system
names; every unknown one is named, and nothing is stored unless all are known (exit 2).
A file already imported into the campaign (the same content; for ratings, the same
annotator and item) is refused (exit 2); ``--replace`` replaces an XML file's earlier
judgments. The ranking is computed by the worker queue.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import scoring

from ...campaigns.services.rating_imports import import_file
from ..named import named_phase, named_task

BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Import judgments into a human evaluation campaign of a task's phase: Appraise-style XML rankings, "
        "or ratings as CSV (annotator,item,system,scale,value)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", type=Path, metavar="FILE.xml|FILE.csv")
        parser.add_argument("--campaign", required=True, metavar="NAME")
        parser.add_argument("--phase", metavar="KEY", help="default: the task's current phase")
        parser.add_argument(
            "--replace", action="store_true", help="the file was imported before: replace its judgments"
        )

    def handle(self, slug, file, campaign, phase, replace=False, **_):
        target = named_phase(named_task(slug, returncode=BAD_INPUT), phase, returncode=BAD_INPUT)
        if target.is_multi_corpus:
            raise CommandError(
                f"the {target.title} phase has several corpora; judgments rank the outputs of one", returncode=BAD_INPUT
            )
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}", returncode=BAD_INPUT) from error
        try:
            done = import_file(target, campaign, data, filename=str(file), replace=replace)
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}", returncode=BAD_INPUT) from error
        self.stdout.write(f"{target}: {done.message()}; the worker ranks them")
