"""``manage.py sweep``: re-queue submissions and organizer jobs stuck in queued/running, remove
live channel files no page names any more (Celery beat runs it too)."""

from django.core.management.base import BaseCommand

from ...queue import wait_for_background
from ...services.jobs.sweeper import sweep_channels, sweep_lost_jobs, sweep_stuck_submissions


class Command(BaseCommand):
    help = (
        "Re-queue submissions and organizer jobs that have shown no sign of life for GEC_STUCK_AFTER seconds; "
        "remove live channel files no member's page names any more."
    )

    def add_arguments(self, parser):
        parser.add_argument("--older-than", type=float, default=None, help="seconds (default GEC_STUCK_AFTER)")

    def handle(self, older_than, **_):
        requeued = sweep_stuck_submissions(older_than)
        self.stdout.write(f"re-queued {len(requeued)} submission(s): {requeued}")
        jobs = sweep_lost_jobs(older_than)
        self.stdout.write(f"re-queued {len(jobs)} organizer job(s): {jobs}")
        self.stdout.write(f"removed {sweep_channels()} live channel file(s) no page names any more")
        wait_for_background()
