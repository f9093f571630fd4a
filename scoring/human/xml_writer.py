"""Ranking items back to Appraise's XML (the format :func:`scoring.meta.read_judgments` reads).

One ``<translation>`` per shown output (its systems space-separated, as Appraise wrote
identical outputs), so the file reads back to the same items and the same figures.
System names are single XML-attribute tokens: a name holding whitespace, or any text
holding a character XML 1.0 cannot carry, could not be read back, and is refused
(ValueError) rather than written wrongly; so are outputs that do not group the ranked
systems (each system in one output, one rank per output).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta
from xml.sax.saxutils import quoteattr

from .judgments import ITEM, TRANSLATION, RankingItem

NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(value: str, what: str) -> str:
    if NOT_IN_XML.search(value):
        raise ValueError(f"{what} {value!r} holds a character XML cannot carry")
    return value


def _system(name: str) -> str:
    if not name or any(character.isspace() for character in name):
        raise ValueError(f"system name {name!r} cannot be written: names are single tokens without whitespace")
    return _text(name, "system name")


def _outputs(item: RankingItem) -> list[tuple[tuple[str, ...], int]]:
    """(systems, rank) per shown output; the groups must cover the ranked systems once, each with one rank."""
    rank = dict(item.ranks)
    groups = item.output_groups()
    grouped = [system for group in groups for system in group]
    if item.src_id < 1 or any(r < 1 for r in rank.values()):
        raise ValueError(
            f"the ranking of src-id {item.src_id} by {item.user!r}: src-id and ranks are positive integers"
        )
    if sorted(grouped) != sorted(rank) or any(len({rank[s] for s in group}) != 1 for group in groups):
        raise ValueError(
            f"the ranking of src-id {item.src_id} by {item.user!r}: its outputs do not group its ranked "
            "systems, each output with one rank"
        )
    return [(group, rank[group[0]]) for group in groups]


def _duration(seconds: float | None) -> str:
    """Appraise's ``duration`` attribute (``H:MM:SS.ffffff``, as Python prints a timedelta), or nothing."""
    if seconds is None:
        return ""
    return f' duration="{timedelta(seconds=max(0.0, float(seconds)))}"'


def write_judgments_xml(
    items: Iterable[RankingItem],
    *,
    source_language: str = "src",
    target_language: str = "cor",
    result_id: str = "judgments",
) -> bytes:
    """UTF-8 Appraise XML for ``items``; raises ValueError for a name that cannot round-trip."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<appraise-results>",
        f"<error-correction-ranking-result source-language={quoteattr(source_language)} "
        f"id={quoteattr(result_id)} target-language={quoteattr(target_language)}>",
    ]
    for number, item in enumerate(items, start=1):
        user = quoteattr(_text(item.user, "user"))
        lines.append(f'\t<{ITEM} src-id="{int(item.src_id)}" id="{number}" user={user}{_duration(item.duration)}>')
        for group, rank in _outputs(item):
            systems = " ".join(_system(system) for system in group)
            lines.append(f'\t\t<{TRANSLATION} system={quoteattr(systems)} rank="{int(rank)}" />')
        lines.append(f"\t</{ITEM}>")
    lines += ["</error-correction-ranking-result>", "</appraise-results>", ""]
    return "\n".join(lines).encode("utf-8")
