"""``python -m scoring meta``: correlations of every metric with human judgments.

Takes the scoring options of ``python -m scoring`` plus human system scores
(``--human SCHEME=FILE``), optional sentence rankings (``--judgments FILE.xml``; without
``--human`` the systems are ranked from them, schemes ``NAME:EW`` and ``NAME:TS``) and
bootstrap settings; prints the meta-evaluation table, or its JSON with ``--json``.
Exit status 2 on bad input, every problem on stderr by line or element.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import InputError
from ..meta.evaluate import DEFAULT_SAMPLES, DEFAULT_SEED, DEFAULT_WINDOW, meta_evaluate
from ..meta.files import parse_system_sets, read_human_judgments
from ..scorer import build_metrics, signature, system_statistics
from .command_line import add_scoring_arguments, checked_metrics, prepared_file, read_inputs, report_bad_input


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring meta", description="Correlate every metric with human judgments."
    )
    add_scoring_arguments(parser)
    human = parser.add_argument_group("human judgments")
    human.add_argument(
        "--human",
        action="append",
        default=[],
        metavar="SCHEME=FILE",
        help="system scores, lines SYSTEM_NAME SCORE (repeat); bare scores follow the --hyp names sorted, as "
        "SEEDA's files",
    )
    human.add_argument(
        "--judgments",
        action="append",
        default=[],
        metavar="[NAME=]FILE.xml",
        help="Appraise-style sentence rankings (repeat); without --human the systems are ranked from them (schemes "
        "NAME:EW, NAME:TS)",
    )
    human.add_argument(
        "--judged-lines",
        metavar="FILE",
        help="0-based line of the judged corpus for each dataset line (SEEDA's subset_line_ids.txt)",
    )
    human.add_argument(
        "--system-set",
        action="append",
        default=[],
        metavar="NAME=A,B|NAME=-A,-B|seeda",
        help="systems to correlate over (repeat; -A leaves A out); 'seeda' = base, +INPUT, +REF-F_GPT-3.5, all; "
        "default all",
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help="bootstrap samples over sentences (0: no intervals)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--window", type=int, default=DEFAULT_WINDOW, help="systems per window in the window analysis")
    return parser


def interval_text(entry: dict, key: str) -> str:
    def figure(value) -> str:
        return "-" if value is None else f"{value:+.3f}"

    ci = entry.get(f"{key}_ci")
    return figure(entry[key]) + (f" [{figure(ci[0])}, {figure(ci[1])}]" if ci else "")


def format_table(table: dict) -> str:
    """Per system set: correlations per path and scheme, then sentence-level agreement."""
    lines = []
    for set_name, content in table["sets"].items():
        lines.append(f"== {set_name}: {len(content['systems'])} systems ==")
        for path, schemes in content["system"].items():
            for scheme, entry in schemes.items():
                lines.append(
                    f"{path:34} {scheme:10} pearson {interval_text(entry, 'pearson'):26} spearman "
                    f"{interval_text(entry, 'spearman')}"
                )
        for path, rankings in content["sentence"].items():
            for rankings_name, entry in rankings.items():
                lines.append(
                    f"{path:34} {rankings_name:10} accuracy {interval_text(entry, 'accuracy'):25} tau "
                    f"{interval_text(entry, 'tau')}  ({entry['pairs']} pairs)"
                )
        lines.append("")
    lines.append(table["signature"])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    metrics, options = checked_metrics(parser, args)
    try:
        sets = parse_system_sets(args.system_set)
    except ValueError as exc:
        parser.error(str(exc))
    if not args.human and not args.judgments:
        parser.error(
            "give --human SCHEME=FILE (system scores) or --judgments FILE.xml (rankings to rank the systems from)"
        )
    if args.bootstrap < 0 or args.window < 2:
        parser.error("--bootstrap must be >= 0 and --window >= 2")
    try:
        prepared = prepared_file(args)
        dataset, hypotheses = read_inputs(args, prepared)
        human = read_human_judgments(
            args.human,
            args.judgments,
            Path(args.judged_lines) if args.judged_lines else None,
            sets,
            sorted(h.name for h in hypotheses),
            seed=args.seed,
        )
        human.line_of(len(dataset))
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    built = build_metrics(metrics, options)
    for metric in built:
        metric.prepare(dataset)
    statistics = {h.name: system_statistics(dataset, h, built) for h in hypotheses}
    if prepared is not None:
        prepared.keep(dataset)
    table = meta_evaluate(statistics, built, human, samples=args.bootstrap, seed=args.seed, window=args.window)
    table["signature"] = signature(built, options, dataset) + "|" + table["signature"]
    print(json.dumps(table, indent=1) if args.json else format_table(table))
    return 0
