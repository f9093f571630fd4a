"""``python -m scoring``: score system outputs with every metric (CONTRACTS.md section 2).

Exit status 0 on success, 2 on bad input with every problem on stderr by line number.
"""
from __future__ import annotations

import argparse
import gc
import json
import sys
from pathlib import Path

from .bootstrap import paired_bootstrap_of
from .dataset import Dataset
from .errors import InputError
from .gleu import SCORE_FUNCTIONS
from .hypothesis import read_hypothesis
from .limits import DEFAULT_LIMITS, Limits
from .options import ScoringOptions
from .paths import value_at
from .pipelines import ORDER as PIPELINE_ORDER
from .pipelines import UnknownLanguage, UnknownPipeline, get_pipeline, languages
from .prepared_file import PreparedFile, inputs_fingerprint
from .registry import can_resample, headline_scores, metric_of, resampled_paths, resampling
from .scorer import ScoringResult, metric_names, score_systems

EXIT_BAD_INPUT = 2
BOOTSTRAP_PATH = "errant.cs.f"


def add_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say what to score and how; ``python -m scoring meta`` shares them."""
    gold = parser.add_argument_group("references (one of)")
    gold.add_argument("--source", help="source sentences, one per line")
    gold.add_argument("--ref", action="append", default=[], help="a reference file, one per annotator (repeat)")
    gold.add_argument("--m2", help="an M2 file: S lines are the source, each annotator id one reference")
    parser.add_argument("--hyp", action="append", default=[], required=True, metavar="NAME=FILE", help="a system output (repeat); .m2/.errant files use their edits as given")
    parser.add_argument("--metrics", default=None, help="comma-separated; default: all registered")
    parser.add_argument("--beta", type=float, default=0.5)
    parser.add_argument("--sim", action="store_true", help="add similarity-weighted CLEME2.0 (BERTScore)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--tokenize", action="store_true", help="run the language's spaCy tokenizer on raw input first")
    language = parser.add_argument_group("language (docs/languages.md)")
    language.add_argument("--lang", default="en", metavar="CODE", help=f"ISO 639-1 code of the texts (default en): {', '.join(languages())}")
    language.add_argument("--pipeline", choices=PIPELINE_ORDER, help="text pipeline (default: the richest the language has); tokens = MultiGEC-2025's official ERRANT figures")
    language.add_argument("--gleu-variant", choices=tuple(SCORE_FUNCTIONS), default="official",
                          help="official = compute_gleu; multigec = the PyPI gleu 1.1.0 tool as MultiGEC-2025 ran it (-d 4 -f -n 4 -t word)")
    limits = parser.add_argument_group("limits (every input file)")
    limits.add_argument("--max-tokens", type=int, default=DEFAULT_LIMITS.line_tokens, help="tokens per line")
    limits.add_argument("--max-chars", type=int, default=DEFAULT_LIMITS.line_chars, help="characters per line")
    limits.add_argument("--max-file-tokens", type=int, default=DEFAULT_LIMITS.file_tokens, help="tokens per file")
    limits.add_argument("--max-file-chars", type=int, default=DEFAULT_LIMITS.file_chars, help="characters per file")
    parser.add_argument("--gts-ref", type=int, default=0, help="GoToScorer reference annotator (default 0)")
    parser.add_argument("--no-weight", action="store_true", help="GoToScorer without difficulty weights")
    parser.add_argument("--max-unchanged-words", type=int, default=2, help="M2: most unchanged tokens inside one edit (m2scorer's default 2)")
    parser.add_argument("--ignore-whitespace-casing", action="store_true", help="M2: drop system edits that only change whitespace or case")
    parser.add_argument("--prepared", metavar="FILE", help="keep the prepared dataset (parses, reference edits, similarity tables) in FILE: "
                        "loaded when made from the same gold and versions, written back when the run adds to it")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring", description="Score GEC system outputs against references.",
        epilog="python -m scoring meta --help: correlations with human judgments.",
    )
    add_scoring_arguments(parser)
    parser.add_argument("--bootstrap", type=int, default=0, metavar="SAMPLES", help="paired bootstrap of each system against the first")
    parser.add_argument("--bootstrap-path", default=BOOTSTRAP_PATH, metavar="PATH", help=f"the score to bootstrap (default {BOOTSTRAP_PATH}); any path its metric resamples")
    parser.add_argument("--seed", type=int, default=12345, help="bootstrap seed")
    return parser


def parse_hyp_arguments(values: list[str]) -> list[tuple[str, Path]]:
    """``NAME=FILE`` pairs; a bare FILE is named after its stem."""
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        pairs.append((name, Path(path)) if sep else (Path(value).stem, Path(value)))
    return pairs


def format_table(result: ScoringResult) -> str:
    """A fixed-width table of the headline figures that were computed."""
    columns = [(h.label, h.path) for h in headline_scores() if any(value_at(s, h.path) is not None for s in result.systems.values())]
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


def bootstrap_against_first(result: ScoringResult, options: ScoringOptions, samples: int, seed: int, path: str = BOOTSTRAP_PATH) -> dict:
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
    return {name: paired_bootstrap_of(resamplings[name], resamplings[names[0]], path, samples=samples, seed=seed).as_dict() for name in names[1:]}


def checked_metrics(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[list[str], ScoringOptions]:
    """The metric names and options the scoring arguments ask for; usage errors (two
    systems of one name among them) exit."""
    if bool(args.m2) == bool(args.source or args.ref):
        parser.error("give either --source with --ref (one or more), or --m2")
    if args.source and not args.ref:
        parser.error("--source needs at least one --ref")
    try:
        metrics = metric_names(args.metrics.split(",") if args.metrics else None)
    except ValueError as exc:
        parser.error(str(exc))
    names = [name for name, _ in parse_hyp_arguments(args.hyp)]
    for name in {n for n in names if names.count(n) > 1}:
        parser.error(f"the system name {name!r} is given twice in --hyp; one would silently replace the other")
    try:
        get_pipeline(args.lang, args.pipeline)
    except (UnknownLanguage, UnknownPipeline) as exc:
        parser.error(str(exc))
    m2_options = {"m2_max_unchanged_words": args.max_unchanged_words, "m2_ignore_whitespace_casing": args.ignore_whitespace_casing}
    options = ScoringOptions(beta=args.beta, sim=args.sim, gts_ref=args.gts_ref, gts_weighted=not args.no_weight, gleu_variant=args.gleu_variant, extra=m2_options)
    return metrics, options


def report_bad_input(exc: Exception) -> int:
    """Every problem of an InputError (or the OSError) on stderr; the exit status."""
    if isinstance(exc, InputError):
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
    else:
        print(f"error: {exc.filename}: {exc.strerror}", file=sys.stderr)
    return EXIT_BAD_INPUT


def read_inputs(args: argparse.Namespace, prepared: PreparedFile | None = None) -> tuple[Dataset, list]:
    """The dataset (from ``prepared`` when it matches) and every ``--hyp``; raises InputError or OSError."""
    limits = Limits(args.max_tokens, args.max_chars, args.max_file_tokens, args.max_file_chars)

    def make() -> Dataset:
        return Dataset.from_files(source=args.source, refs=args.ref, m2=args.m2, tokenize_input=args.tokenize, limits=limits, lang=args.lang, pipeline=args.pipeline)

    dataset = make() if prepared is None else prepared.load_or(make)
    return dataset, [read_hypothesis(dataset, path, name, limits=limits) for name, path in parse_hyp_arguments(args.hyp)]


def prepared_file(args: argparse.Namespace) -> PreparedFile | None:
    """``--prepared FILE`` with the fingerprint of this run's gold; raises OSError."""
    if not args.prepared:
        return None
    fingerprint = inputs_fingerprint(source=args.source, refs=args.ref, m2=args.m2, tokenize=args.tokenize, lang=args.lang, pipeline=args.pipeline)
    return PreparedFile(Path(args.prepared), fingerprint)


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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["meta"]:
        from .meta.cli import main as meta_main

        return meta_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    metrics, options = checked_metrics(parser, args)
    if args.bootstrap and not can_resample(args.bootstrap_path):
        parser.error(f"--bootstrap-path {args.bootstrap_path} cannot be resampled; choose from {', '.join(resampled_paths())}")
    try:
        prepared = prepared_file(args)
        dataset, hypotheses = read_inputs(args, prepared)
    except (InputError, OSError) as exc:
        return report_bad_input(exc)
    result = score_systems(dataset, hypotheses, metrics, options)
    if prepared is not None:
        prepared.keep(dataset)
    if args.json:
        output = result.as_json()
        if args.bootstrap:
            output["bootstrap"] = bootstrap_against_first(result, options, args.bootstrap, args.seed, args.bootstrap_path)
        print(json.dumps(output, indent=1))
    else:
        print(format_table(result))
        if args.bootstrap:
            for name, test in bootstrap_against_first(result, options, args.bootstrap, args.seed, args.bootstrap_path).items():
                print(f"{name} vs {hypotheses[0].name}: d({args.bootstrap_path})={test['delta']:+.4f} 95% CI [{test['ci_low']:+.4f}, {test['ci_high']:+.4f}] p={test['p_value']:.4f}")
    return 0
