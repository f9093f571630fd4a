"""Direct assessment: systems by their ratings on named scales (WMT's DA, MultiGEC-2025).

A :class:`Rating` is one annotator's value for one system's output of one item on one
scale (MultiGEC-2025 rated each corrected essay for grammaticality and fluency, 1 to 4;
WMT rates on one 0-100 slider). Per system and scale:

- ``mean``: the mean raw rating;
- ``z``: the mean of the ratings standardised per annotator and scale ((value - the
  annotator's mean) / their standard deviation, 0 when they gave one value only), which
  removes an annotator's leniency and spread (WMT's DA);
- ``n``: the ratings counted;
- ``cluster``: WMT23's rule (:mod:`scoring.human.wmt_clusters`): systems ordered by ``z``,
  A beats B below it when a one-sided Mann-Whitney U test on their per-item average raw
  ratings over the items both share gives p < ``alpha``, and a cluster ends where the
  fewest wins of its members equal the systems left below; ``cluster_rule="neighbours"``
  gives the rule used before (a rank-sum test of each system's z-scores against the next's);
- ``interval``: the 95% bootstrap interval of ``mean`` over items
  (:mod:`scoring.human.rating_intervals`), and per scale ``paired``: each pair of systems
  compared item by item (sign test).

Agreement per scale is Krippendorff's alpha (interval, or ``level="ordinal"``) over the
units (item, system), coders the annotators (:mod:`scoring.human.alpha`), an annotator's
repeated ratings of a unit counted as their mean; consistency (``intra_alpha``) is the
same alpha over each annotator's repeated ratings of one output, the unit (annotator,
item, system) and each rating its own coder: None where nobody rated an output twice;
``intra_alpha_by_annotator`` the same for each annotator alone (their own repeated units).
The CSV, one rating a row, is ``annotator,item,system,scale,value``: what a campaign
exports and imports and what ``python -m scoring human --ratings`` reads.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, Problem, ProblemCollector
from ..fields.spreadsheet import read_cell, safe_cell
from ..readers import as_bytes
from ..version import __version__
from .alpha import INTERVAL, alpha_of
from .rank_sum import neighbour_clusters, rank_sum_p
from .rating_intervals import DEFAULT_SAMPLES, DEFAULT_SEED, bootstrap_intervals, paired_comparisons, sign_test_p
from .wmt_clusters import CLUSTER_RULES, NEIGHBOURS, WMT23, segment_means, wmt23_clusters

COLUMNS = ("annotator", "item", "system", "scale", "value")
MAX_BYTES = 64 * 1024 * 1024
MAX_FIELD = 200
CLUSTER_ALPHA = 0.05
ROUND = 9  # z-scores rounded so that equal ratings tie whatever an annotator's scale (rank-sum ties)


@dataclass(frozen=True)
class Rating:
    annotator: str
    item: str  # the rated unit's id: a campaign writes the 1-based line of the corpus
    system: str
    scale: str
    value: float
    line: int = field(default=0, compare=False)  # of the CSV row, for messages


NUMBER = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?")  # ASCII, no exponent: float() takes '１', '1e308', 'nan'


def number(text: str) -> float | None:
    """A rating: a decimal number in ASCII digits (what a scale holds); None otherwise."""
    if not NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def check_header(header: Sequence[str] | None, problems: ProblemCollector) -> list[int] | None:
    """Positions of the five columns, in any order; None (and a problem) when one is missing."""
    names = [h.strip().lower() for h in header or []]
    missing = [c for c in COLUMNS if c not in names]
    if missing:
        problems.add(1, f"the header must name the columns {','.join(COLUMNS)} (missing: {', '.join(missing)})")
        return None
    return [names.index(c) for c in COLUMNS]


def parse_row(row: list[str], where: list[int], line: int, problems: ProblemCollector) -> Rating | None:
    if len(row) < len(set(where)) or max(where) >= len(row):
        problems.add(line, f"{len(row)} fields; a rating has {','.join(COLUMNS)}")
        return None
    annotator, item, system, scale, text = (read_cell(row[i].strip()) for i in where)
    bad = [c for c, v in zip(COLUMNS[:4], (annotator, item, system, scale)) if not v or len(v) > MAX_FIELD]
    value = number(text)
    if bad:
        problems.add(line, f"{', '.join(bad)}: empty or longer than {MAX_FIELD} characters")
    if value is None:
        problems.add(line, f"value: a finite number in ASCII digits, as 3 or -2.5 (got {text[:40]!r})")
    return None if bad or value is None else Rating(annotator, item, system, scale, value, line)


def read_ratings(
    source: bytes | str | Path, *, max_rows: int | None = None, max_bytes: int = MAX_BYTES
) -> list[Rating]:
    """The ratings of a CSV file (or its bytes); every problem named by line. A file over
    ``max_bytes`` is refused before it is decoded, and reading stops at the row past
    ``max_rows``: a large file costs no more than the limits allow."""
    data, name = as_bytes(source)
    problems = ProblemCollector(name)
    if len(data) > max_bytes:
        raise InputError([Problem(0, f"the file has {len(data)} bytes: the limit is {max_bytes}", name)])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError([Problem(0, f"not UTF-8 text ({error.reason} at byte {error.start})", name)]) from None
    reader = csv.reader(io.StringIO(text))
    try:
        where = check_header(next(reader, None), problems)
        ratings, rows = [], 0
        for row in reader:
            if where is None:
                break
            if not any(cell.strip() for cell in row):
                continue
            rows += 1
            if max_rows is not None and rows > max_rows:
                problems.add(reader.line_num, f"more than {max_rows} ratings: the limit is {max_rows}")
                break
            rating = parse_row(row, where, reader.line_num, problems)
            if rating is not None:
                ratings.append(rating)
    except csv.Error as error:
        problems.add(reader.line_num, f"not CSV: {error}")
    if not problems.problems and not ratings:
        problems.add(0, "no ratings: the file has a header and no rows")
    problems.raise_if_any()
    return ratings


def write_ratings(ratings: Iterable[Rating]) -> str:
    """The CSV :func:`read_ratings` reads; integral values written without a decimal point."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180: a CR in a cell gets the cell quoted, not a new row
    writer.writerow(COLUMNS)
    for r in ratings:
        value = int(r.value) if float(r.value).is_integer() else r.value
        writer.writerow([safe_cell(c) for c in (r.annotator, r.item, r.system, r.scale, value)])
    return out.getvalue()


def z_scores(ratings: Sequence[Rating]) -> list[float]:
    """Each rating standardised by its annotator's ratings on its scale (population SD)."""
    groups: dict[tuple[str, str], list[float]] = {}
    for r in ratings:
        groups.setdefault((r.annotator, r.scale), []).append(r.value)
    moments = {}
    for key, values in groups.items():
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        moments[key] = (mean, sd)
    out = []
    for r in ratings:
        mean, sd = moments[(r.annotator, r.scale)]
        out.append(0.0 if sd <= 1e-12 * max(1.0, abs(mean)) else round((r.value - mean) / sd, ROUND))
    return out


def rating_signature(alpha: float, rule: str = WMT23, level: str = INTERVAL) -> str:
    """sacreBLEU-style: what produced the figures, so two runs can be compared."""
    cluster = "wmt23-mannwhitney-segments" if rule == WMT23 else "ranksum-neighbours"
    return (
        f"human:da|z:annotator+scale|cluster:{cluster}-p<{alpha}|agreement:alpha-{level}"
        f"|interval:bootstrap-items-95|version:{__version__}"
    )


@dataclass
class RatingResults:
    systems: dict[str, dict[str, dict]] = field(default_factory=dict)  # system -> scale -> figures
    scales: list[str] = field(default_factory=list)
    agreement: dict[str, float | None] = field(default_factory=dict)  # scale -> alpha
    consistency: dict[str, float | None] = field(default_factory=dict)  # scale -> alpha over repeats
    consistency_by_annotator: dict[str, dict[str, float | None]] = field(default_factory=dict)
    paired: dict[str, dict] = field(default_factory=dict)  # scale -> A -> B -> sign test
    ratings: int = 0
    annotators: int = 0
    alpha: float = CLUSTER_ALPHA
    rule: str = WMT23
    level: str = INTERVAL

    def as_json(self) -> dict:
        return {
            "systems": {s: {"scales": scales} for s, scales in self.systems.items()},
            "scales": self.scales,
            "agreement": {
                "alpha": self.agreement,
                "intra_alpha": self.consistency,
                "intra_alpha_by_annotator": self.consistency_by_annotator,
                "level": self.level,
            },
            "paired": self.paired,
            "cluster_rule": self.rule,
            "ratings": self.ratings,
            "annotators": self.annotators,
            "signature": rating_signature(self.alpha, self.rule, self.level),
        }


@dataclass(frozen=True)
class Options:
    """How a scale's figures are computed (the defaults: WMT23's clusters, interval alpha)."""

    alpha: float = CLUSTER_ALPHA
    rule: str = WMT23
    level: str = INTERVAL
    samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED


def clusters_of(ratings: Sequence[Rating], standard: dict[str, list[float]], options: Options) -> dict[str, int]:
    if options.rule == NEIGHBOURS:
        return neighbour_clusters(standard, options.alpha)
    order = sorted(standard, key=lambda s: (-sum(standard[s]) / len(standard[s]), s))
    return wmt23_clusters(order, segment_means([(r.system, r.item, r.value) for r in ratings]), options.alpha)


def scale_figures(ratings: Sequence[Rating], z: Sequence[float], options: Options) -> dict[str, dict]:
    """``{system: {"mean", "z", "n", "cluster", "interval"}}`` of one scale's ratings."""
    raw: dict[str, list[float]] = {}
    standard: dict[str, list[float]] = {}
    for r, score in zip(ratings, z):
        raw.setdefault(r.system, []).append(r.value)
        standard.setdefault(r.system, []).append(score)
    clusters = clusters_of(ratings, standard, options)
    intervals = bootstrap_intervals(
        [(r.system, r.item, r.value) for r in ratings], samples=options.samples, seed=options.seed
    )
    return {
        s: {
            "mean": sum(raw[s]) / len(raw[s]),
            "z": sum(standard[s]) / len(standard[s]),
            "n": len(raw[s]),
            "cluster": clusters[s],
            "interval": intervals.get(s),
        }
        for s in sorted(raw, key=lambda s: (clusters[s], -sum(standard[s]) / len(standard[s]), s))
    }


def scale_alpha(ratings: Sequence[Rating], level: str = INTERVAL) -> float | None:
    """Alpha between annotators; an annotator's repeats of a unit count as their mean."""
    units: dict[tuple[str, str], dict[str, list[float]]] = {}
    for r in ratings:
        units.setdefault((r.item, r.system), {}).setdefault(r.annotator, []).append(r.value)
    return alpha_of(units, level)


def repeat_units(ratings: Sequence[Rating]) -> dict[tuple[str, str, str], dict[str, list[float]]]:
    """Units (annotator, item, system), each rating its own coder (its order of rating)."""
    units: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for r in ratings:
        seen = units.setdefault((r.annotator, r.item, r.system), {})
        seen[str(len(seen))] = [r.value]
    return units


def scale_intra_alpha(ratings: Sequence[Rating], level: str = INTERVAL) -> float | None:
    """Alpha over repeats: how alike an annotator rated one output each time they saw it."""
    return alpha_of(repeat_units(ratings), level)


def intra_alpha_by_annotator(ratings: Sequence[Rating], level: str = INTERVAL) -> dict[str, float | None]:
    """``{annotator: alpha over their own repeated units}`` (None: no repeat, or all alike)."""
    units = repeat_units(ratings)
    by_annotator: dict[str, dict] = {}
    for key, coders in units.items():
        by_annotator.setdefault(key[0], {})[key] = coders
    return {a: alpha_of(own, level) for a, own in sorted(by_annotator.items())}


def check_options(options: Options) -> None:
    if options.rule not in CLUSTER_RULES:
        raise ValueError(f"cluster rule {options.rule!r}: give one of {', '.join(CLUSTER_RULES)}")
    alpha_of({}, options.level)  # names a wrong level


def rate_systems(ratings: Sequence[Rating], *, alpha: float = CLUSTER_ALPHA, **settings) -> RatingResults:
    """Every system's figures on every scale, best first, and each scale's agreement.
    ``settings``: :class:`Options`' ``rule``, ``level``, ``samples``, ``seed``."""
    if not ratings:
        raise InputError([Problem(0, "no ratings to rank systems by")])
    options = Options(alpha=alpha, **settings)
    check_options(options)
    z = z_scores(ratings)
    scales = list(dict.fromkeys(r.scale for r in ratings))  # as the file first names them
    annotators = len({r.annotator for r in ratings})
    results = RatingResults(
        scales=scales, ratings=len(ratings), annotators=annotators, alpha=alpha, rule=options.rule, level=options.level
    )
    for scale in scales:
        chosen = [i for i, r in enumerate(ratings) if r.scale == scale]
        rated = [ratings[i] for i in chosen]
        figures = scale_figures(rated, [z[i] for i in chosen], options)
        for system, entry in figures.items():
            results.systems.setdefault(system, {})[scale] = entry
        results.agreement[scale] = scale_alpha(rated, options.level)
        results.consistency[scale] = scale_intra_alpha(rated, options.level)
        results.consistency_by_annotator[scale] = intra_alpha_by_annotator(rated, options.level)
        segments = segment_means([(r.system, r.item, r.value) for r in rated])
        results.paired[scale] = paired_comparisons(list(figures), segments)
    order = scales[0]
    results.systems = dict(sorted(results.systems.items(), key=lambda kv: -kv[1].get(order, {"z": -math.inf})["z"]))
    return results


def control_p(originals: Sequence[float], degraded: Sequence[float]) -> float:
    """Quality control as Appraise's: one-sided rank-sum p-value that an annotator rated
    the originals higher than their degraded copies (trusted at p <= a threshold)."""
    return rank_sum_p(originals, degraded)


def paired_control_p(pairs: Sequence[tuple[float, float]]) -> float:
    """Quality control of ratings, paired: each ``(original, copy)`` is an annotator's rating
    of an output and of its own degraded copy; the one-sided sign test's p-value that they
    rate originals higher (ties left out). n copies all rated lower give 0.5^n: 5 reach 0.05,
    where the unpaired rank-sum (:func:`control_p`) needs 10 pairs' worth of screens."""
    wins = sum(original > copy for original, copy in pairs)
    losses = sum(original < copy for original, copy in pairs)
    return sign_test_p(wins, losses)
