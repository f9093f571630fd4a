"""``manage.py rescore <slug>``: score every submission again and show what changed."""

from django.core.management.base import BaseCommand

from ...services.scoring_jobs.rescore import rescore_task
from ..named import named_task


class Command(BaseCommand):
    help = "Rescore a task's submissions (after a scorer upgrade) and list every score that moved."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, slug, **_):
        changes = rescore_task(named_task(slug), report=self.stdout.write)
        if not changes:
            self.stdout.write("no score changed")
        for submission_id, moved in changes.items():
            self.stdout.write(f"#{submission_id}:")
            for path, (old, new) in sorted(moved.items()):
                self.stdout.write(f"  {path}: {old} -> {new}")
