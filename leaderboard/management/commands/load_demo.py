"""``manage.py load_demo``: a SEEDA demo task with several systems already scored.

Data come from ``GEC_SHARED_DIR`` (default: ``../shared`` beside the checkout): the
391-sentence SEEDA subset, references REF0 and REF1, and five systems.
"""
import time

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from ...models import SharedTask
from ...services.intake import accept_submission
from ...services.scoring import score_submission
from ...services.tasks import create_task

SLUG = "seeda-demo"
SYSTEMS = ("T5", "GECToR-BERT", "BART", "UEDIN-MS", "TransGEC")
BASELINE = "INPUT"


class Command(BaseCommand):
    help = "Create the SEEDA demo task and score a few systems (takes a few minutes on 2 cores)."

    def add_arguments(self, parser):
        parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated SEEDA subset systems")

    def handle(self, systems, **_):
        seeda = settings.SHARED_DIR / "data" / "seeda"
        outputs = seeda / "seeda" / "outputs" / "subset"
        refs = [seeda / "derived" / "subset" / f"REF{k}.txt" for k in (0, 1)]
        if not (outputs / "INPUT.txt").exists():
            raise CommandError(f"SEEDA data not found under {seeda}: set GEC_SHARED_DIR")
        if SharedTask.objects.filter(slug=SLUG).exists():
            self.stdout.write(f"task {SLUG} exists already")
            return
        started = time.monotonic()
        self.stdout.write("preparing the dataset (parsing sources, annotating references) ...")
        task = create_task(
            SLUG, title="SEEDA demo (391 sentences, CoNLL-14 subset)",
            description="Demo task: the SEEDA subset with two references; five systems and the INPUT baseline are scored.",
            source=(outputs / "INPUT.txt").read_text(encoding="utf-8"),
            references=[(p.stem, p.read_text(encoding="utf-8")) for p in refs],
        )
        phase = task.phases.get()
        names = [n for n in systems.split(",") if n]
        for k, name in enumerate([BASELINE, *names], start=1):
            user, _ = User.objects.get_or_create(username="organizers" if name == BASELINE else name.lower())
            path = outputs / f"{name}.txt"
            # scored inline, not queued, so the command ends with a populated board in every mode
            submission = accept_submission(
                phase, user, system_name=name, filename=path.name, content=path.read_bytes(),
                is_baseline=name == BASELINE, enforce_limits=False, queue=False,
            )
            self.stdout.write(f"[{k}/{len(names) + 1}] scoring {name} ...")
            score_submission(submission.pk)
        self.stdout.write(f"demo task {SLUG} ready in {time.monotonic() - started:.0f} s")

