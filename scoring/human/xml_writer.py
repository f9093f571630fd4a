"""Ranking items back to Appraise's XML (the format :func:`scoring.meta.read_judgments` reads).

One ``<translation>`` per shown output (its systems space-separated, as Appraise wrote
identical outputs), so the file reads back to the same items and the same figures.
System names are single XML-attribute tokens: a name holding whitespace could not be
read back, and is refused rather than written wrongly.
"""
from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import quoteattr

from ..meta.judgments import ITEM, TRANSLATION, RankingItem


def _checked(name: str) -> str:
    if not name or any(character.isspace() for character in name):
        raise ValueError(f"system name {name!r} cannot be written: names are single tokens without whitespace")
    return name


def write_judgments_xml(items: Iterable[RankingItem], *, source_language: str = "src", target_language: str = "cor", result_id: str = "judgments") -> bytes:
    """UTF-8 Appraise XML for ``items``; raises ValueError for a name that cannot round-trip."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<appraise-results>",
             f"<error-correction-ranking-result source-language={quoteattr(source_language)} id={quoteattr(result_id)} target-language={quoteattr(target_language)}>"]
    for number, item in enumerate(items, start=1):
        rank = dict(item.ranks)
        lines.append(f'\t<{ITEM} src-id="{int(item.src_id)}" id="{number}" user={quoteattr(item.user)}>')
        for group in item.output_groups():
            systems = " ".join(_checked(system) for system in group)
            lines.append(f'\t\t<{TRANSLATION} system={quoteattr(systems)} rank="{int(rank[group[0]])}" />')
        lines.append(f"\t</{ITEM}>")
    lines += ["</error-correction-ranking-result>", "</appraise-results>", ""]
    return "\n".join(lines).encode("utf-8")
