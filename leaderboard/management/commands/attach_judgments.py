"""``manage.py attach_judgments <slug> --human SCHEME=FILE ... [--judgments [NAME=]FILE.xml ...]``.

Stores a phase's human judgments once, for ``/tasks/<slug>/meta-evaluation/`` and
``GET /api/tasks/<slug>/meta-evaluation/``. Scores are matched to submissions by system
name. For SEEDA's subset::

    manage.py attach_judgments seeda-demo --names seeda --system-set seeda \\
        --human TS_sent=.../scores/human/TS_sent.txt ... \\
        --judgments sent=.../data/judgments_sent.xml --judged-lines .../subset_line_ids.txt
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

import scoring
from scoring.meta import SEEDA_SYSTEMS, parse_system_sets, read_human_judgments

from ...campaigns.services.judgments import attach_judgments
from ..named import named_phase, named_task


class Command(BaseCommand):
    help = "Attach human system scores and sentence rankings to a task's phase, for the meta-evaluation."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--phase", choices=["dev", "test"], help="default: the task's current phase")
        parser.add_argument(
            "--human",
            action="append",
            default=[],
            metavar="SCHEME=FILE",
            help="SYSTEM_NAME SCORE lines, or bare scores with --names (repeat)",
        )
        parser.add_argument(
            "--names",
            default="",
            help="comma-separated system names of bare score files, in order; 'seeda' = SEEDA's 15",
        )
        parser.add_argument(
            "--judgments",
            action="append",
            default=[],
            metavar="[NAME=]FILE.xml",
            help="Appraise-style rankings (repeat)",
        )
        parser.add_argument("--judged-lines", type=Path, help="0-based judged line of each dataset line")
        parser.add_argument("--system-set", action="append", default=[], metavar="NAME=A,B|NAME=-A,-B|seeda")

    def handle(self, slug, phase, human, names, judgments, judged_lines, system_set, **_):
        target = named_phase(named_task(slug), phase)
        if not human and not judgments:
            raise CommandError("give --human SCHEME=FILE and/or --judgments FILE.xml")
        order = SEEDA_SYSTEMS if names == "seeda" else [n for n in names.split(",") if n] or None
        try:
            loaded = read_human_judgments(human, judgments, judged_lines, parse_system_sets(system_set), order)
            attach_judgments(target, loaded, [*human, *judgments, *([str(judged_lines)] if judged_lines else [])])
        except scoring.InputError as error:
            raise CommandError(f"bad input:\n{error}") from error
        except (OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        ranked = sum(len(items) for items in loaded.rankings.values())
        self.stdout.write(
            f"{target}: {len(loaded.schemes)} score schemes, {ranked} ranking items, sets "
            f"{', '.join(loaded.system_sets)}"
        )
