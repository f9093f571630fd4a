"""What ``python -m scoring`` and ``python -m scoring meta`` share: the options that say
what to score and how, reading the gold and the system outputs they name, and reporting
bad input (every problem by line, exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..dataset import Dataset
from ..errors import InputError
from ..gleu.score import SCORE_FUNCTIONS
from ..hypothesis import read_hypothesis
from ..limits import DEFAULT_LIMITS, Limits
from ..options import ScoringOptions
from ..pipelines import ORDER as PIPELINE_ORDER
from ..pipelines import UnknownLanguage, UnknownPipeline, get_pipeline, languages
from ..scorer import metric_names
from .prepared_file import PreparedFile, inputs_fingerprint

EXIT_BAD_INPUT = 2


def add_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say what to score and how; ``python -m scoring meta`` shares them."""
    gold = parser.add_argument_group("references (one of)")
    gold.add_argument("--source", help="source sentences, one per line")
    gold.add_argument("--ref", action="append", default=[], help="a reference file, one per annotator (repeat)")
    gold.add_argument("--m2", help="an M2 file: S lines are the source, each annotator id one reference")
    parser.add_argument(
        "--hyp",
        action="append",
        default=[],
        required=True,
        metavar="NAME=FILE",
        help="a system output (repeat); .m2/.errant files use their edits as given",
    )
    parser.add_argument(
        "--metrics",
        default=None,
        help="comma-separated; default: all registered but the language-model ones (scribendi, ...), named to run",
    )
    parser.add_argument("--beta", type=float, default=0.5)
    parser.add_argument("--sim", action="store_true", help="add similarity-weighted CLEME2.0 (BERTScore)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--tokenize", action="store_true", help="run the language's spaCy tokenizer on raw input first")
    language = parser.add_argument_group("language (docs/languages.md)")
    language.add_argument(
        "--lang",
        default="en",
        metavar="CODE",
        help=f"ISO 639-1 code of the texts (default en): {', '.join(languages())}",
    )
    language.add_argument(
        "--pipeline",
        choices=PIPELINE_ORDER,
        help="text pipeline (default: the richest the language has); tokens = MultiGEC-2025's official ERRANT figures",
    )
    language.add_argument(
        "--gleu-variant",
        choices=tuple(SCORE_FUNCTIONS),
        default="official",
        help="official = compute_gleu; multigec = the PyPI gleu 1.1.0 tool as MultiGEC-2025 ran it (-d 4 -f -n 4 "
        "-t word)",
    )
    parser.add_argument(
        "--scribendi-variant",
        choices=("multigec", "unicode"),
        default="multigec",
        help="multigec = fuzzywuzzy's token sort as MultiGEC-2025 ran it (U+0080-U+00FF deleted); unicode keeps them",
    )
    limits = parser.add_argument_group("limits (every input file)")
    limits.add_argument("--max-tokens", type=int, default=DEFAULT_LIMITS.line_tokens, help="tokens per line")
    limits.add_argument("--max-chars", type=int, default=DEFAULT_LIMITS.line_chars, help="characters per line")
    limits.add_argument("--max-file-tokens", type=int, default=DEFAULT_LIMITS.file_tokens, help="tokens per file")
    limits.add_argument("--max-file-chars", type=int, default=DEFAULT_LIMITS.file_chars, help="characters per file")
    parser.add_argument("--gts-ref", type=int, default=0, help="GoToScorer reference annotator (default 0)")
    parser.add_argument("--no-weight", action="store_true", help="GoToScorer without difficulty weights")
    parser.add_argument(
        "--max-unchanged-words",
        type=int,
        default=2,
        help="M2: most unchanged tokens inside one edit (m2scorer's default 2)",
    )
    parser.add_argument(
        "--ignore-whitespace-casing",
        action="store_true",
        help="M2: drop system edits that only change whitespace or case",
    )
    parser.add_argument(
        "--prepared",
        metavar="FILE",
        help="keep the prepared dataset (parses, reference edits, similarity tables) in FILE: "
        "loaded when made from the same gold and versions, written back when the run adds to it",
    )


def parse_hyp_arguments(values: list[str]) -> list[tuple[str, Path]]:
    """``NAME=FILE`` pairs; a bare FILE is named after its stem."""
    pairs = []
    for value in values:
        name, sep, path = value.partition("=")
        pairs.append((name, Path(path)) if sep else (Path(value).stem, Path(value)))
    return pairs


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
    m2_options = {
        "m2_max_unchanged_words": args.max_unchanged_words,
        "m2_ignore_whitespace_casing": args.ignore_whitespace_casing,
        "scribendi_variant": args.scribendi_variant,
    }
    options = ScoringOptions(
        beta=args.beta,
        sim=args.sim,
        gts_ref=args.gts_ref,
        gts_weighted=not args.no_weight,
        gleu_variant=args.gleu_variant,
        extra=m2_options,
    )
    return metrics, options


def report_bad_input(exc: Exception) -> int:
    """Every problem of an InputError (or the OSError) on stderr; the exit status."""
    if isinstance(exc, InputError):
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
    else:
        print(f"error: {getattr(exc, 'filename', '')}: {getattr(exc, 'strerror', exc)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def read_inputs(args: argparse.Namespace, prepared: PreparedFile | None = None) -> tuple[Dataset, list]:
    """The dataset (from ``prepared`` when it matches) and every ``--hyp``; raises InputError or OSError."""
    limits = Limits(args.max_tokens, args.max_chars, args.max_file_tokens, args.max_file_chars)

    def make() -> Dataset:
        return Dataset.from_files(
            source=args.source,
            refs=args.ref,
            m2=args.m2,
            tokenize_input=args.tokenize,
            limits=limits,
            lang=args.lang,
            pipeline=args.pipeline,
        )

    dataset = make() if prepared is None else prepared.load_or(make)
    return dataset, [
        read_hypothesis(dataset, path, name, limits=limits) for name, path in parse_hyp_arguments(args.hyp)
    ]


def prepared_file(args: argparse.Namespace) -> PreparedFile | None:
    """``--prepared FILE`` with the fingerprint of this run's gold; raises OSError."""
    if not args.prepared:
        return None
    fingerprint = inputs_fingerprint(
        source=args.source, refs=args.ref, m2=args.m2, tokenize=args.tokenize, lang=args.lang, pipeline=args.pipeline
    )
    return PreparedFile(Path(args.prepared), fingerprint)
