"""``python -m scoring``: score system outputs with every metric (docs/contracts.md section 2).

Exit status 0 on success, 2 on bad input with every problem on stderr by line number.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys

from ..bootstrap import paired_bootstrap_of
from ..errors import InputError
from ..lm.runtime import LMSettingError
from ..metrics.base import REGISTRY
from ..options import ScoringOptions
from ..paths import value_at
from ..registry import can_resample, headline_scores, metric_of, resampled_paths, resampling
from ..scorer import ScoringResult, score_systems
from .command_line import add_scoring_arguments, checked_metrics, prepared_file, read_inputs, report_bad_input

BOOTSTRAP_PATH = "errant.cs.f"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score GEC system outputs against references.",
        epilog="python -m scoring meta --help: correlations with human judgments. python -m scoring human --help: "
        "ranking systems from human rankings.",
    )
    add_scoring_arguments(parser)
    parser.add_argument(
        "--bootstrap", type=int, default=0, metavar="SAMPLES", help="paired bootstrap of each system against the first"
    )
    parser.add_argument(
        "--bootstrap-path",
        default=BOOTSTRAP_PATH,
        metavar="PATH",
        help=f"the score to bootstrap (default {BOOTSTRAP_PATH}); any path its metric resamples",
    )
    parser.add_argument("--seed", type=int, default=12345, help="bootstrap seed")
    return parser


def format_table(result: ScoringResult) -> str:
    """A fixed-width table of the headline figures that were computed."""
    columns = [
        (h.label, h.path)
        for h in headline_scores(REGISTRY)  # every metric's, the language-model ones too
        if any(value_at(s, h.path) is not None for s in result.systems.values())
    ]
    names = list(result.systems)
    width = max([len("system")] + [len(n) for n in names])
    lines = ["  ".join(["system".ljust(width)] + [h.rjust(max(len(h), 7)) for h, _ in columns])]
    for name in names:
        cells = []
        for header, path in columns:
            value = value_at(result.systems[name], path)
            cells.append(("-" if value is None else f"{value:.4f}").rjust(max(len(header), 7)))
        lines.append("  ".join([name.ljust(width)] + cells))
    lines.append("")
    lines.append(f"{result.n_sentences} sentences, {result.n_references} references")
    lines.extend(f"{metric}: not scored: {reason}" for metric, reason in result.unsupported.items())
    lines.append(result.signature)
    return "\n".join(lines)


def bootstrap_against_first(
    result: ScoringResult, options: ScoringOptions, samples: int, seed: int, path: str = BOOTSTRAP_PATH
) -> dict:
    """Paired bootstrap of the score at ``path`` of every system against the first one."""
    names = list(result.statistics)
    metric_name = path.split(".", 1)[0]
    if metric_name not in result.statistics[names[0]]:
        return {}
    own = {name: result.statistics[name][metric_name] for name in names}
    cls = metric_of(path)
    pool = cls(options).pool_counts(list(own.values())) if cls is not None and cls.pooled else None
    resamplings = {name: resampling(path, stats, options, pool) for name, stats in own.items()}
    if resamplings[names[0]] is None:
        return {}
    return {
        name: paired_bootstrap_of(resamplings[name], resamplings[names[0]], path, samples=samples, seed=seed).as_dict()
        for name in names[1:]
    }


GC_GEN0_THRESHOLD = 10_000


def batch_gc() -> None:
    """Collect less often in a one-shot ``python -m scoring`` process (CPython's default
    gen-0 threshold is 700); not done by :func:`main`, which other programs call.

    A run builds some 200,000 long-lived containers (parses, edits, chunk records) and
    frees few of them; at the default the collector rescanned them all seven times,
    0.6 of the 9 CPU seconds of one SEEDA system. Cyclic garbage is still collected.
    """
    if gc.get_threshold()[0] < GC_GEN0_THRESHOLD:
        gc.set_threshold(GC_GEN0_THRESHOLD, *gc.get_threshold()[1:])


def scored(dataset, hypotheses, metrics: list[str], options: ScoringOptions) -> ScoringResult | int:
    """:func:`score_systems`, or the exit status of a clear error: a line past a language
    model's context (the line named), or a language-model setting that cannot serve."""
    try:
        return score_systems(dataset, hypotheses, metrics, options)
    except InputError as exc:
        return report_bad_input(exc)
    except LMSettingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def print_result(result: ScoringResult, args: argparse.Namespace, options: ScoringOptions, first: str) -> None:
    """The JSON object or the table, with the bootstrap against the ``first`` system when asked."""
    if args.json:
        output = result.as_json()
        if args.bootstrap:
            output["bootstrap"] = bootstrap_against_first(
                result, options, args.bootstrap, args.seed, args.bootstrap_path
            )
        print(json.dumps(output, indent=1))
        return
    print(format_table(result))
    if args.bootstrap:
        tests = bootstrap_against_first(result, options, args.bootstrap, args.seed, args.bootstrap_path)
        for name, test in tests.items():
            print(
                f"{name} vs {first}: d({args.bootstrap_path})={test['delta']:+.4f} "
                f"95% CI [{test['ci_low']:+.4f}, {test['ci_high']:+.4f}] p={test['p_value']:.4f}"
            )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["meta"]:
        from .meta import main as meta_main  # here, not above: it loads SciPy, which scoring alone never needs

        return meta_main(argv[1:])
    if argv[:1] == ["human"]:
        from .human import main as human_main  # here: TrueSkill, which scoring alone never needs

        return human_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    metrics, options = checked_metrics(parser, args)
    if args.bootstrap and not can_resample(args.bootstrap_path):
        parser.error(
            f"--bootstrap-path {args.bootstrap_path} cannot be resampled; choose from {', '.join(resampled_paths())}"
        )
    try:
        prepared = prepared_file(args)
        dataset, hypotheses = read_inputs(args, prepared)
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    result = scored(dataset, hypotheses, metrics, options)
    if isinstance(result, int):
        return result
    if prepared is not None:
        prepared.keep(dataset)
    print_result(result, args, options, hypotheses[0].name)
    return 0
