"""``python -m scoring meta``: correlations of every metric with human judgments.

Takes the scoring options of ``python -m scoring`` plus human system scores
(``--human SCHEME=FILE``), optional sentence rankings (``--judgments FILE.xml``) and
bootstrap settings; prints the meta-evaluation table, or its JSON with ``--json``.
Exit status 2 on bad input, every problem on stderr by line or element.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..cli import add_scoring_arguments, checked_metrics, read_inputs, report_bad_input
from ..errors import InputError, Problem
from ..scorer import build_metrics, signature, system_statistics
from .evaluate import DEFAULT_SAMPLES, DEFAULT_SEED, DEFAULT_WINDOW, meta_evaluate
from .human import read_human_scores
from .judged import ALL_SYSTEMS, SEEDA_SYSTEM_SETS, HumanJudgments
from .judgments import read_judgments


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring meta", description="Correlate every metric with human judgments.")
    add_scoring_arguments(parser)
    human = parser.add_argument_group("human judgments")
    human.add_argument("--human", action="append", default=[], required=True, metavar="SCHEME=FILE",
                       help="system scores, lines SYSTEM_NAME SCORE (repeat); bare scores follow the --hyp names sorted, as SEEDA's files")
    human.add_argument("--judgments", action="append", default=[], metavar="[NAME=]FILE.xml", help="Appraise-style sentence rankings (repeat)")
    human.add_argument("--judged-lines", metavar="FILE", help="0-based line of the judged corpus for each dataset line (SEEDA's subset_line_ids.txt)")
    human.add_argument("--system-set", action="append", default=[], metavar="NAME=A,B|NAME=-A,-B|seeda",
                       help="systems to correlate over (repeat; -A leaves A out); 'seeda' = base, +INPUT, +REF-F_GPT-3.5, all; default all")
    parser.add_argument("--bootstrap", type=int, default=DEFAULT_SAMPLES, metavar="N", help="bootstrap samples over sentences (0: no intervals)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--window", type=int, default=DEFAULT_WINDOW, help="systems per window in the window analysis")
    return parser


def named_path(value: str) -> tuple[str, Path]:
    name, sep, path = value.partition("=")
    return (name, Path(path)) if sep else (Path(value).stem, Path(value))


def system_sets(parser: argparse.ArgumentParser, values: list[str]) -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    for value in values:
        if value == "seeda":
            sets.update(SEEDA_SYSTEM_SETS)
            continue
        name, sep, members = value.partition("=")
        if not sep or not name:
            parser.error(f"--system-set {value!r}: expected NAME=A,B,... or seeda")
        sets[name] = [m for m in members.split(",") if m]
    return sets or dict(ALL_SYSTEMS)


def read_line_ids(path: Path) -> list[int]:
    problems, ids = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").split(), start=1):
        if line.isdigit():
            ids.append(int(line))
        else:
            problems.append(Problem(number, f"{line!r} is not a line number", str(path)))
    if problems:
        raise InputError(problems)
    return ids


def read_human(args: argparse.Namespace, sets: dict[str, list[str]], systems: list[str]) -> HumanJudgments:
    """Everything human from the files given; raises InputError or OSError."""
    return HumanJudgments(
        schemes={scheme: read_human_scores(path, sorted(systems)) for scheme, path in map(named_path, args.human)},
        rankings={name: read_judgments(path) for name, path in map(named_path, args.judgments)},
        line_ids=read_line_ids(Path(args.judged_lines)) if args.judged_lines else None,
        system_sets=sets,
    )


def interval_text(entry: dict, key: str) -> str:
    ci = entry.get(f"{key}_ci")
    return f"{entry[key]:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")


def format_table(table: dict) -> str:
    """Per system set: correlations per path and scheme, then sentence-level agreement."""
    lines = []
    for set_name, content in table["sets"].items():
        lines.append(f"== {set_name}: {len(content['systems'])} systems ==")
        for path, schemes in content["system"].items():
            for scheme, entry in schemes.items():
                lines.append(f"{path:34} {scheme:10} pearson {interval_text(entry, 'pearson'):26} spearman {interval_text(entry, 'spearman')}")
        for path, rankings in content["sentence"].items():
            for rankings_name, entry in rankings.items():
                lines.append(f"{path:34} {rankings_name:10} accuracy {interval_text(entry, 'accuracy'):25} tau {interval_text(entry, 'tau')}  ({entry['pairs']} pairs)")
        lines.append("")
    lines.append(table["signature"])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    metrics, options = checked_metrics(parser, args)
    sets = system_sets(parser, args.system_set)
    if args.bootstrap < 0 or args.window < 2:
        parser.error("--bootstrap must be >= 0 and --window >= 2")
    try:
        dataset, hypotheses = read_inputs(args)
        human = read_human(args, sets, [h.name for h in hypotheses])
        human.line_of(len(dataset))
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    built = build_metrics(metrics, options)
    for metric in built:
        metric.prepare(dataset)
    statistics = {h.name: system_statistics(dataset, h, built) for h in hypotheses}
    table = meta_evaluate(statistics, built, human, samples=args.bootstrap, seed=args.seed, window=args.window)
    table["signature"] = signature(built, options, dataset) + "|" + table["signature"]
    print(json.dumps(table, indent=1) if args.json else format_table(table))
    return 0
