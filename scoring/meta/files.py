"""Human judgments from files, as ``python -m scoring meta`` and ``manage.py attach_judgments`` take them."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError, Problem
from ..fields.integers import whole_number
from ..human.judgments import read_judgments
from ..human.ranking import scheme_scores
from .human import read_human_scores
from .judged import ALL_SYSTEMS, SEEDA_SYSTEM_SETS, HumanJudgments


def named_path(value: str) -> tuple[str, Path]:
    """``NAME=FILE``, or a bare FILE named after its stem."""
    name, sep, path = value.partition("=")
    return (name, Path(path)) if sep else (Path(value).stem, Path(value))


def parse_system_sets(values: list[str]) -> dict[str, list[str]]:
    """``NAME=A,B`` / ``NAME=-A,-B`` / ``seeda`` (SEEDA's four sets); default: all systems."""
    sets: dict[str, list[str]] = {}
    for value in values:
        if value == "seeda":
            sets.update(SEEDA_SYSTEM_SETS)
            continue
        name, sep, members = value.partition("=")
        if not sep or not name:
            raise ValueError(f"system set {value!r}: expected NAME=A,B,... or seeda")
        sets[name] = [m for m in members.split(",") if m]
    return sets or dict(ALL_SYSTEMS)


def read_line_ids(path: Path) -> list[int]:
    """One 0-based line of the judged corpus per dataset line (SEEDA's ``subset_line_ids.txt``)."""
    problems, ids = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        value = whole_number(line.strip(), minimum=0)
        if value is not None:
            ids.append(value)
        elif line.strip():
            problems.append(Problem(number, f"{line.strip()!r} is not a line number", str(path)))
    if problems:
        raise InputError(problems)
    return ids


def read_human_judgments(
    schemes: list[str],
    rankings: list[str],
    judged_lines: Path | None,
    system_sets: dict[str, list[str]],
    names: list[str] | None,
    seed: int = 0,
) -> HumanJudgments:
    """``SCHEME=FILE`` score files, ``[NAME=]FILE.xml`` ranking files and the line ids;
    ``names`` order bare scores. Without score files the systems are ranked from the
    ranking files themselves (schemes ``NAME:EW`` and ``NAME:TS``, :mod:`scoring.human`;
    ``seed`` orders TrueSkill's matches). Raises InputError or OSError."""
    read_rankings = {name: read_judgments(path) for name, path in map(named_path, rankings)}
    read_schemes = {scheme: read_human_scores(path, names) for scheme, path in map(named_path, schemes)}
    return HumanJudgments(
        schemes=read_schemes or scheme_scores(read_rankings, seed=seed),
        rankings=read_rankings,
        line_ids=read_line_ids(judged_lines) if judged_lines else None,
        system_sets=system_sets,
    )
