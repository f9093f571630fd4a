"""Appraise-style rankings: SEEDA's files read whole; bad elements named by line; no DTDs."""

from __future__ import annotations

import pytest

from scoring import InputError
from scoring.meta import RankingItem, read_judgments
from tests.support.meta_support import JUDGMENTS


def test_seeda_sentence_judgments():
    items = read_judgments(JUDGMENTS["sent"])
    assert len(items) == 600
    first = items[0]
    assert (first.src_id, first.user, first.line) == (12, "annotator1", 5)
    assert dict(first.ranks) == {"T5": 2, "Riken-Tohoku": 2, "BERT-fuse": 1, "PIE": 5, "TransGEC": 3, "UEDIN-MS": 5}
    assert RankingItem.from_json(first.as_json()) == first


def xml(body: str) -> bytes:
    return (
        "<?xml "
        f'version="1.0"?>\n<appraise-results>\n<error-correction-ranking-result>\n{body}\n</error-correction-ranking-result>\n</appraise-results>\n'
    ).encode()


def problems(data: bytes) -> list[tuple[int, str]]:
    with pytest.raises(InputError) as caught:
        read_judgments(data)
    return [(p.line, p.message) for p in caught.value.problems]


def test_bad_elements_are_named_by_line():
    body = "\n".join(
        [
            '<ranking-item src-id="x" user="a"><translation system="A" rank="1"/></ranking-item>',
            '<ranking-item src-id="2" user="a">',
            '<translation system="A" rank="0"/>',
            '<translation system="B A" rank="2"/>',
            '<translation system=" " rank="2"/>',
            '<translation rank="3"/>',
            "</ranking-item>",
            '<translation system="C" rank="1"/>',
        ]
    )
    assert problems(xml(body)) == [
        (4, "<ranking-item> src-id='x' is not a positive integer"),
        (6, "<translation> rank='0' is not a positive integer"),
        (7, "system 'A' ranked twice in the <ranking-item> of line 5"),
        (8, "<translation> names no system"),
        (9, "<translation> names no system"),
        (11, "<translation> outside a <ranking-item>"),
    ]


def test_malformed_xml_names_its_line():
    assert problems(b"<appraise-results>\n<ranking-item src-id='1'>\n</appraise-results>\n") == [
        (3, "not well-formed XML: mismatched tag")
    ]


def test_a_document_type_declaration_is_refused_before_any_entity_expands():
    laughs = (
        b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n<!ENTITY lol2 '
        b'"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n<appraise-results>&lol2;</appraise-results>\n'
    )
    assert problems(laughs) == [(2, "document type declarations are not accepted")]
    external = b'<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "file:///etc/passwd">\n<r/>\n'
    assert problems(external) == [(2, "document type declarations are not accepted")]


def test_no_items():
    assert problems(xml("")) == [(0, "no <ranking-item> elements")]
