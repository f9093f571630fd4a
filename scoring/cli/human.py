"""``python -m scoring human``: rank systems from relative rankings in Appraise XML, or
by direct assessment from ratings in CSV (``--ratings``, :mod:`.human_ratings`).

Each ``--judgments [NAME=]FILE.xml`` is ranked on its own (one ranking per NAME; a bare
FILE is named after its stem). ``--json`` prints the ranking's JSON, or, for more than one
file, an object keyed by NAME. Exit status 2 on bad input, every problem by file and line.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from ..errors import InputError
from ..human.agreement import EMNLP2015, KAPPA_VARIANTS
from ..human.judgments import counted_rankings, read_judgments
from ..human.ranking import DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES, MIN_SHARED, HumanRanking, rank_systems
from .command_line import report_bad_input
from .human_ratings import ratings_main


def named_path(value: str) -> tuple[str, Path]:
    """``NAME=FILE``, or a bare FILE named after its stem."""
    name, sep, path = value.partition("=")
    return (name, Path(path)) if sep and name else (Path(value).stem, Path(value))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring human", description="Rank systems from human relative rankings (Appraise XML)."
    )
    parser.add_argument(
        "--judgments",
        action="append",
        metavar="[NAME=]FILE.xml",
        help="rankings in Appraise XML (repeat: each file is ranked on its own)",
    )
    parser.add_argument(
        "--ratings",
        action="append",
        metavar="[NAME=]FILE.csv",
        help="direct assessment: annotator,item,system,scale,value (repeat: each file on its own)",
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"bootstrap samples for the 95%% rank ranges (default {DEFAULT_SAMPLES}; 0: none)",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="seed of the bootstrap and of TrueSkill's match order"
    )
    parser.add_argument(
        "--min-shared",
        type=int,
        default=MIN_SHARED,
        metavar="N",
        help=f"kappa: leave out annotator pairs sharing fewer judgments (default {MIN_SHARED})",
    )
    parser.add_argument(
        "--kappa",
        choices=KAPPA_VARIANTS,
        default=EMNLP2015,
        help="kappa's chance agreement: emnlp2015 (default; each annotator pair's own <, =, > shares, as "
        "Grundkiewicz et al.'s agreement.pl) or wmt13 (one share of ties for the whole file, < and > pooled)",
    )
    parser.add_argument(
        "--clusters",
        choices=("wmt23", "neighbours"),
        default="wmt23",
        help="--ratings: WMT23's clusters (default; Mann-Whitney on per-item averages, every pair) or neighbours "
        "(the rank-sum of each system's z-scores against the next one's)",
    )
    parser.add_argument(
        "--alpha-level",
        choices=("interval", "ordinal"),
        default="interval",
        help="--ratings: Krippendorff's alpha at the interval (default) or ordinal level",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_table(name: str, ranking: HumanRanking, left_out: int = 0) -> str:
    fewer = f" ({left_out} more rank fewer than two systems: not counted)" if left_out else ""
    lines = [
        f"== {name}: {ranking.rankings} rankings{fewer}, {ranking.annotators} annotators ==",
        f"{'cluster':>7}  {'range':>7}  {'EW':>6}  {'TS':>7}  system",
    ]
    for system in ranking.systems:
        best, worst = system.range
        span = f"{best}" if best == worst else f"{best}-{worst}"
        lines.append(
            f"{system.cluster:>7}  {span:>7}  {system.expected_wins:6.3f}  {system.trueskill:+7.3f}  {system.name}"
        )
    kappa = ranking.agreement
    inter, intra = figure(kappa["inter"]), figure(kappa["intra"])
    lines.append(f"kappa ({kappa_of(ranking)}): inter-annotator {inter}, intra-annotator {intra}")
    lines.append(ranking.signature)
    return "\n".join(lines)


def kappa_of(ranking: HumanRanking) -> str:
    return next((part.split(":", 1)[1] for part in ranking.signature.split("|") if part.startswith("kappa:")), "")


def ranked(items: list, path: Path, args: argparse.Namespace) -> HumanRanking:
    """The ranking of one file; a limit it passes is reported against the file."""
    try:
        return rank_systems(
            items, bootstrap=args.bootstrap, seed=args.seed, min_shared=args.min_shared, kappa=args.kappa
        )
    except InputError as exc:
        raise InputError([replace(problem, file=problem.file or str(path)) for problem in exc.problems]) from None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 0 <= args.bootstrap <= MAX_SAMPLES or args.min_shared < 1:
        parser.error(f"--bootstrap must be 0 to {MAX_SAMPLES} and --min-shared >= 1")
    if bool(args.judgments) == bool(args.ratings):
        parser.error("give --judgments FILE.xml (rankings) or --ratings FILE.csv (direct assessment), not both")
    files = [named_path(value) for value in args.judgments or args.ratings]
    names = [name for name, _ in files]
    for name in sorted({n for n in names if names.count(n) > 1}):
        parser.error(f"the name {name!r} is given twice; name the files NAME=FILE")
    if args.ratings:
        return ratings_main(files, args.json, rule=args.clusters, level=args.alpha_level, seed=args.seed)
    try:
        items = {name: read_judgments(path) for name, path in files}
        rankings = {name: ranked(items[name], path, args) for name, path in files}
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    if args.json:
        output = {name: ranking.as_json() for name, ranking in rankings.items()}
        print(json.dumps(output if len(output) > 1 else next(iter(output.values())), indent=1))
    else:
        tables = [
            format_table(name, ranking, len(items[name]) - counted_rankings(items[name]))
            for name, ranking in rankings.items()
        ]
        print("\n\n".join(tables))
    return 0
