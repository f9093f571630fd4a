"""``manage.py submit <slug> --user U --system NAME FILE`` (baselines, back-fills)."""

from pathlib import Path

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

import scoring

from ...queue import wait_for_background
from ...services.submissions.intake import accept_submission
from ..named import named_phase, named_task


class Command(BaseCommand):
    help = "Submit a system output as a user (the user's team is created when they have none); queued like an upload."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", required=True)
        parser.add_argument("--system", required=True)
        parser.add_argument("--phase", choices=["dev", "test"])
        parser.add_argument("--description", default="")
        parser.add_argument("--baseline", action="store_true", help="a baseline: always in the pool, shown in italics")

    def handle(self, slug, file, user, system, phase, description, baseline, **_):
        target = named_phase(named_task(slug), phase)
        account, _ = User.objects.get_or_create(username=user)
        try:
            submission = accept_submission(
                target,
                account,
                system_name=system,
                filename=file.name,
                content=file.read_bytes(),
                description=description,
                is_baseline=baseline,
                enforce_limits=False,
            )
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}") from error
        self.stdout.write(f"submission #{submission.pk} queued")
        wait_for_background()  # embedded mode: score before the command exits
        submission.refresh_from_db()
        self.stdout.write(f"submission #{submission.pk}: {submission.status}")
