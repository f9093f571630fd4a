"""Human system scores: one value per system and scheme (SEEDA's ``scores/human/*.txt``).

A scheme file has one line per system, ``SYSTEM_NAME<whitespace>SCORE``. SEEDA ships
bare scores, one per line in the alphabetical order of its 15 systems (Kobayashi et al.,
TACL 2024, ``scores/human/``); such a file is read against an explicit list of names.
Higher is better in every scheme (Expected Wins, TrueSkill).
"""

from __future__ import annotations

import math
from pathlib import Path

from ..errors import ProblemCollector
from ..readers import as_bytes


def read_human_scores(source: bytes | str | Path, names: list[str] | None = None) -> dict[str, float]:
    """``{system: score}`` from a scheme file; bare scores take ``names`` in order.

    Raises :class:`scoring.InputError` listing every bad line.
    """
    data, display = as_bytes(source)
    problems = ProblemCollector(display)
    lines, bare = _scheme_lines(data, names, problems)
    scores: dict[str, float] = {}
    for position, (number, line) in enumerate(lines):
        fields = line.split()
        if bare:
            assert names is not None  # refused above
            name, value = names[position], fields[0]
        elif len(fields) != 2:
            problems.add(number, f"expected SYSTEM_NAME SCORE, got {len(fields)} fields")
            continue
        else:
            name, value = fields
        try:
            score = float(value)
        except ValueError:
            problems.add(number, f"{value!r} is not a number")
            continue
        if not math.isfinite(score):
            problems.add(number, f"{value!r} is not a finite number")
        elif name in scores:
            problems.add(number, f"system {name!r} scored twice")
        else:
            scores[name] = score
    problems.raise_if_any()
    return scores


def _scheme_lines(
    data: bytes, names: list[str] | None, problems: ProblemCollector
) -> tuple[list[tuple[int, str]], bool]:
    """The file's non-blank (number, line) pairs and whether they are bare scores; raises on a file unfit to read."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.add(0, f"invalid UTF-8 at byte {exc.start}")
        problems.raise_if_any()
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        problems.add(0, "no scores in the file")
    bare = all(len(line.split()) == 1 for _, line in lines)
    if bare and names is None:
        problems.add(0, "bare scores need the system names in order (give SYSTEM_NAME SCORE lines)")
    if bare and names is not None and len(names) != len(lines):
        problems.add(0, f"{len(lines)} bare scores for {len(names)} systems")
    problems.raise_if_any()
    return lines, bare
