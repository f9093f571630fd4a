"""``manage.py load_demo``: demo tasks with several systems already scored.

Always the bundled CoNLL-2014 demo (``leaderboard/demo.py``: official test gold, systems
simulated from it), which needs nothing beside the checkout, and the multilingual
MultiGEC-style demo (``leaderboard/demo_data/multigec``: Ukrainian, Czech and Icelandic
corpora under open licences, four simulated systems; ``--no-multigec`` skips it). The SEEDA demo (real
system outputs, 391 sentences) is added when its data is present under
``GEC_SHARED_DIR`` (default: a ``shared`` directory beside the checkout), or asked for with
``--seeda``, with SEEDA's human judgments attached for its meta-evaluation page.
"""

import datetime as dt
import io
import time
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

import scoring
from scoring.meta import SEEDA_SYSTEMS as SEEDA_JUDGED_SYSTEMS
from scoring.meta import parse_system_sets, read_human_judgments

from ... import demo
from ...campaigns.services.judgments import attach_judgments
from ...models import Judgments, Phase, SharedTask
from ...services.data.corpora import read_corpora_dir
from ...services.data.datasets import prepare_dataset_m2, prepare_stored
from ...services.hosting.host import add_corpus_phase, store_corpora
from ...services.hosting.task_creation import add_phase, create_task
from ...services.scoring_jobs.submission import score_submission
from ...services.submissions.intake import accept_submission

CONLL_SLUG = "conll14-demo"
DEV_SENTENCES = (0, 150)  # (first, count) of the bundled CoNLL-2014 test set
TEST_SENTENCES = (150, 150)
SEEDA_SLUG = "seeda-demo"
SEEDA_SYSTEMS = ("T5", "GECToR-BERT", "BART", "UEDIN-MS", "TransGEC")
SEEDA_HUMAN_SCHEMES = ["TS_sent", "EW_sent", "TS_edit", "EW_edit"]  # seeda/scores/human/<scheme>.txt
SEEDA_RANKINGS = ["sent", "edit"]  # seeda/data/judgments_<name>.xml
BASELINE = "INPUT"
MULTIGEC_SLUG = "multigec-demo"
MULTIGEC_DATA = Path(__file__).resolve().parents[2] / "demo_data" / "multigec"
MULTIGEC_BASELINE = "copy"  # the source itself: the do-nothing system


def seeda_dir():
    return settings.SHARED_DIR / "data" / "seeda"


def seeda_available() -> bool:
    return (seeda_dir() / "seeda" / "outputs" / "subset" / "INPUT.txt").exists()


class Command(BaseCommand):
    help = "Create the demo tasks and score their systems inline (a minute or two on 2 cores; SEEDA a few more)."

    def add_arguments(self, parser):
        parser.add_argument("--seeda", action="store_true", help="also the SEEDA demo (fails if its data is missing)")
        parser.add_argument("--no-seeda", action="store_true", help="only the bundled demos")
        parser.add_argument("--no-multigec", action="store_true", help="without the multilingual demo")

    def handle(self, seeda, no_seeda, no_multigec, **_):
        self.load_conll14()
        if not no_multigec:
            self.load_multigec()
        if seeda and not seeda_available():
            raise CommandError(f"SEEDA data not found under {seeda_dir()}: set GEC_SHARED_DIR")
        if no_seeda:
            self.stdout.write("SEEDA demo skipped (--no-seeda)")
        elif seeda or seeda_available():
            self.load_seeda()
        else:
            self.stdout.write(
                f"SEEDA demo skipped: its data is not under {seeda_dir()} (set GEC_SHARED_DIR to the folder "
                "holding data/seeda to add it; the CoNLL-2014 demo needs nothing)"
            )

    def score(self, phase, entries) -> None:
        """Upload and score ``entries`` ((name, filename, bytes), baseline first) inline, not
        queued, so the command ends with a populated board in every mode."""
        for k, (name, filename, content) in enumerate(entries, start=1):
            baseline = name == BASELINE
            user, _ = User.objects.get_or_create(username=f"organizers-{phase.task.slug}" if baseline else name.lower())
            submission = accept_submission(
                phase,
                user,
                system_name=name,
                filename=filename,
                content=content,
                is_baseline=baseline,
                enforce_limits=False,
                queue=False,
            )
            self.stdout.write(f"[{k}/{len(entries)}] scoring {name} ...")
            score_submission(submission.pk)

    def load_conll14(self) -> None:
        if SharedTask.objects.filter(slug=CONLL_SLUG).exists():
            self.stdout.write(f"demo task {CONLL_SLUG} is loaded already")
            return
        self.stdout.write(
            "loading the demo tasks (first start only: scoring their systems takes a minute or two on 2 cores)"
        )
        started = time.monotonic()
        self.stdout.write("CoNLL-2014 demo: preparing the gold (parsing sources, reading both annotators' edits) ...")
        dev_gold = demo.gold_blocks(*DEV_SENTENCES)
        task = create_task(
            CONLL_SLUG,
            m2=dev_gold,
            title="CoNLL-2014 demo (simulated systems)",
            description=(
                "A demo on the official CoNLL-2014 test gold (two annotators; copyright notice in "
                "leaderboard/demo_data/conll14). Development phase: sentences 1-150, public board. Test phase: "
                "sentences 151-300, opens a week after the demo is loaded, for a week; blind, results hidden "
                "until the organizers "
                "reveal them. The systems are simulated from "
                "the gold edits: each applies a fixed share of one annotator's edits plus noise."
            ),
            tracks=["constrained", "unconstrained"],
            name="Development",
        )
        dev = task.phases.get()
        source = scoring.read_m2(dev_gold.encode(), name="demo gold")
        entries = [(BASELINE, "INPUT.txt", "".join(" ".join(s) + "\n" for s in source.sources).encode())]
        entries += [(s.name, f"{s.name}.txt", demo.simulate(source, s).encode()) for s in demo.SYSTEMS]
        self.score(dev, entries)
        add_phase(
            task,
            prepare_dataset_m2(f"{CONLL_SLUG} test", demo.gold_blocks(*TEST_SENTENCES)),
            kind=Phase.Kind.TEST,
            name="Test",
            starts_at=timezone.now() + dt.timedelta(days=7),
            ends_at=timezone.now() + dt.timedelta(days=14),
            results_visibility=Phase.Visibility.ORGANIZERS,
            blind=True,
            max_per_day=5,
            max_total=20,
        )
        self.stdout.write(f"demo task {CONLL_SLUG} ready in {time.monotonic() - started:.0f} s")

    def load_multigec(self) -> None:
        """Three corpora in three languages, each with its own references, in one phase;
        each simulated system uploads one zip of ``<corpus>.txt`` files, as a MultiGEC
        participant would (see the data's README for how the systems were made)."""
        if SharedTask.objects.filter(slug=MULTIGEC_SLUG).exists():
            self.stdout.write(f"task {MULTIGEC_SLUG} exists already")
            return
        started = time.monotonic()
        corpora = read_corpora_dir(MULTIGEC_DATA)
        self.stdout.write(
            f"MultiGEC demo: preparing {len(corpora)} corpora "
            f"({', '.join(f'{c.name} ({c.lang})' for c in corpora)}) ..."
        )
        task = SharedTask.objects.create(
            slug=MULTIGEC_SLUG,
            title="MultiGEC-style demo (Ukrainian, Czech, Icelandic; simulated systems)",
            metrics=["errant", "gleu", "gotoscorer"],
            headline_metric="gleu.score",  # MultiGEC-2025 ranked by GLEU
            description=(
                "A demo of a multilingual task in the shape of MultiGEC-2025: three open corpora, each with "
                "its language and its "
                "number of references (UA-GEC essays, CC BY 4.0; GECCC paragraphs, CC BY-SA 4.0; IceEC "
                "sentences, CC BY 4.0; "
                "attribution in leaderboard/demo_data/multigec/README.md), each scored with its language's "
                "richest offline pipeline and GLEU as MultiGEC "
                "reported it. Each system uploads one zip with a file per corpus; the board shows every "
                "corpus and the macro average. "
                "The systems are simulated from the first reference: each applies a share of its changes plus "
                "a few spurious edits."
            ),
        )
        datasets = store_corpora(task, corpora, prepare=lambda dataset: prepare_stored(dataset, tokenize=False))
        phase = add_corpus_phase(task, datasets, kind=Phase.Kind.DEV, name="Development", gleu_variant="multigec")
        systems = [
            MULTIGEC_BASELINE,
            *sorted({p.stem for c in corpora for p in (MULTIGEC_DATA / c.name / "systems").glob("*.txt")}),
        ]
        for k, name in enumerate(systems, start=1):
            baseline = name == MULTIGEC_BASELINE
            user, _ = User.objects.get_or_create(username=f"organizers-{task.slug}" if baseline else f"multigec-{name}")
            upload = accept_submission(
                phase,
                user,
                system_name=name,
                filename=f"{name}.zip",
                content=system_zip(corpora, name),
                is_baseline=baseline,
                enforce_limits=False,
                queue=False,
            )
            self.stdout.write(f"[{k}/{len(systems)}] scoring {name} on {len(corpora)} corpora ...")
            for output in upload.corpus_outputs.order_by("pk"):
                score_submission(output.pk)
        self.stdout.write(f"demo task {MULTIGEC_SLUG} ready in {time.monotonic() - started:.0f} s")

    def load_seeda(self) -> None:
        task = SharedTask.objects.filter(slug=SEEDA_SLUG).first()
        if task is not None:
            self.stdout.write(f"task {SEEDA_SLUG} exists already")
            if not Judgments.objects.filter(phase__task=task).exists():
                self.attach_seeda_judgments(task)
            return
        started = time.monotonic()
        outputs = seeda_dir() / "seeda" / "outputs" / "subset"
        refs = [seeda_dir() / "derived" / "subset" / f"REF{k}.txt" for k in (0, 1)]
        self.stdout.write("SEEDA demo: preparing the dataset (parsing sources, annotating references) ...")
        task = create_task(
            SEEDA_SLUG,
            title="SEEDA demo (391 sentences, CoNLL-14 subset)",
            description=(
                "Demo task: the SEEDA subset with two references; five systems and the INPUT baseline are scored."
            ),
            source=(outputs / "INPUT.txt").read_text(encoding="utf-8"),
            references=[(p.stem, p.read_text(encoding="utf-8")) for p in refs],
        )
        entries = [(name, f"{name}.txt", (outputs / f"{name}.txt").read_bytes()) for name in (BASELINE, *SEEDA_SYSTEMS)]
        self.score(task.phases.get(), entries)
        self.attach_seeda_judgments(task)
        self.stdout.write(f"demo task {SEEDA_SLUG} ready in {time.monotonic() - started:.0f} s")

    def attach_seeda_judgments(self, task: SharedTask) -> None:
        """SEEDA's human scores and sentence rankings, as ``manage.py attach_judgments`` would
        (docs/metrics.md, Meta-evaluation), so the demo has a meta-evaluation page."""
        data = seeda_dir() / "seeda"
        human = [f"{scheme}={data / 'scores' / 'human' / scheme}.txt" for scheme in SEEDA_HUMAN_SCHEMES]
        rankings = [f"{name}={data / 'data' / f'judgments_{name}.xml'}" for name in SEEDA_RANKINGS]
        judged_lines = data / "subset_line_ids.txt"
        loaded = read_human_judgments(human, rankings, judged_lines, parse_system_sets(["seeda"]), SEEDA_JUDGED_SYSTEMS)
        shown = [
            str(Path(f.partition("=")[2]).relative_to(seeda_dir())) for f in (*human, *rankings)
        ]  # no server paths on the page
        attach_judgments(task.phases.get(), loaded, [*shown, str(judged_lines.relative_to(seeda_dir()))])
        self.stdout.write(
            f"{SEEDA_SLUG}: SEEDA's human judgments attached ({', '.join(SEEDA_HUMAN_SCHEMES + SEEDA_RANKINGS)})"
        )


def system_zip(corpora, system: str) -> bytes:
    """The zip a participant would upload: ``<corpus>.txt`` for each corpus the system has
    (the do-nothing baseline's output is the corpus's source)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for corpus in corpora:
            folder = MULTIGEC_DATA / corpus.name
            output = folder / "source.txt" if system == MULTIGEC_BASELINE else folder / "systems" / f"{system}.txt"
            if output.exists():
                archive.writestr(f"{corpus.name}.txt", output.read_bytes())
    return out.getvalue()
