"""Sentence-level human rankings in Appraise's XML (SEEDA's ``data/judgments_*.xml``).

Each ``<ranking-item src-id="N" user="...">`` ranks the outputs of several systems for
source sentence N (1-based); ``<translation system="A B" rank="r"/>`` gives rank r
(1 = best) to every system whose output was identical and shown once. Ties are allowed.
(Kobayashi et al., TACL 2024, section 3.)

The file is parsed with expat directly, so every problem names its line, and no
document type declaration is accepted: without one there are no entities to expand,
which bounds the cost of a hostile file (no "billion laughs", no external entities).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from ..errors import InputError, Problem, ProblemCollector
from ..fields.integers import whole_number
from ..readers import as_bytes

MAX_BYTES = 64 * 1024 * 1024
ITEM, TRANSLATION = "ranking-item", "translation"


@dataclass(frozen=True)
class RankingItem:
    """One annotator's ranking of the outputs for one source sentence."""

    src_id: int  # 1-based source line of the judged corpus
    user: str
    ranks: tuple[tuple[str, int], ...]  # (system, rank), rank 1 = best
    line: int  # of the element, for messages
    # The outputs as shown: systems whose outputs were identical share one <translation>.
    # Empty: each system its own output. Agreement (scoring.human) compares outputs, not
    # systems; every other figure ignores it, and so does equality.
    outputs: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    # Seconds the annotator spent on the screen, when known: Appraise's ``duration``
    # attribute, written back by :mod:`.xml_writer`; no figure reads it.
    duration: float | None = field(default=None, compare=False)

    def output_groups(self) -> tuple[tuple[str, ...], ...]:
        """The systems of each shown output: ``outputs``, or one system per output."""
        return self.outputs or tuple((system,) for system, _ in self.ranks)

    def counts(self) -> bool:
        """Whether it is a ranking that counts: it ranks two systems or more, so gives at
        least one pairwise comparison. An empty ``<ranking-item>`` or one of a single
        system changes no figure, and no count says it was made."""
        return len(self.ranks) >= 2

    def as_json(self) -> list:
        value = [self.src_id, self.user, [list(pair) for pair in self.ranks], self.line]
        return value + [[list(group) for group in self.outputs]] if self.outputs else value

    @classmethod
    def from_json(cls, value: list) -> RankingItem:
        src_id, user, ranks, line, *outputs = value
        groups = tuple(tuple(group) for group in outputs[0]) if outputs else ()
        return cls(src_id, user, tuple((system, rank) for system, rank in ranks), line, groups)


class _Reader:
    """Expat callbacks collecting ranking items and problems by line."""

    def __init__(self, problems: ProblemCollector):
        self.problems = problems
        self.items: list[RankingItem] = []
        self.current: dict | None = None
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.StartDoctypeDeclHandler = self.doctype
        self.parser.EntityDeclHandler = self.doctype

    def doctype(self, *_args) -> None:
        raise InputError(
            [Problem(self.parser.CurrentLineNumber, "document type declarations are not accepted", self.problems.file)]
        )

    def integer(self, attributes: dict, name: str, element: str) -> int | None:
        line = self.parser.CurrentLineNumber
        if name not in attributes:
            self.problems.add(line, f"<{element}> has no {name} attribute")
            return None
        value = whole_number(attributes[name], minimum=1)
        if value is None:
            self.problems.add(line, f"<{element}> {name}={attributes[name]!r} is not a positive integer")
            return None
        return value

    def start(self, element: str, attributes: dict) -> None:
        line = self.parser.CurrentLineNumber
        if element == ITEM:
            if self.current is not None:
                self.problems.add(line, f"<{ITEM}> inside another <{ITEM}>")
            self.current = {
                "src_id": self.integer(attributes, "src-id", ITEM),
                "user": attributes.get("user", ""),
                "ranks": {},
                "outputs": [],
                "line": line,
            }
        elif element == TRANSLATION:
            if self.current is None:
                self.problems.add(line, f"<{TRANSLATION}> outside a <{ITEM}>")
                return
            rank = self.integer(attributes, "rank", TRANSLATION)
            systems = attributes.get("system", "").split()
            if not systems:
                self.problems.add(line, f"<{TRANSLATION}> names no system")
            else:
                self.current["outputs"].append(tuple(systems))
            for system in systems:
                if system in self.current["ranks"]:
                    self.problems.add(
                        line, f"system {system!r} ranked twice in the <{ITEM}> of line {self.current['line']}"
                    )
                self.current["ranks"][system] = rank

    def end(self, element: str) -> None:
        if element == ITEM and self.current is not None:
            item, self.current = self.current, None
            if item["src_id"] is not None:
                self.items.append(
                    RankingItem(
                        item["src_id"], item["user"], tuple(item["ranks"].items()), item["line"], tuple(item["outputs"])
                    )
                )


def counted_rankings(items: list[RankingItem]) -> int:
    """The count of rankings every page, export and command says: those that count."""
    return sum(1 for item in items if item.counts())


def read_judgments(source: bytes | str | Path) -> list[RankingItem]:
    """Every ranking item of an Appraise-style XML file, in file order.

    Raises :class:`scoring.InputError` naming the line of every bad element.
    """
    data, display = as_bytes(source)
    problems = ProblemCollector(display)
    if len(data) > MAX_BYTES:
        problems.add(0, f"{len(data)} bytes: the limit is {MAX_BYTES}")
        problems.raise_if_any()
    reader = _Reader(problems)
    try:
        reader.parser.Parse(data, True)
    except expat.ExpatError as exc:
        problems.add(exc.lineno, f"not well-formed XML: {expat.ErrorString(exc.code)}")
    problems.raise_if_any()
    if not reader.items:
        problems.add(0, f"no <{ITEM}> elements")
        problems.raise_if_any()
    return reader.items
