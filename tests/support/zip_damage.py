"""Zips damaged the ways a participant's or an organizer's zip arrives damaged: a member
encrypted with ``zip -P``, deflate data that no longer inflates, an archive cut short, a
member whose bytes no longer match their CRC, the same file twice; and a random
mutation of a sound zip (bytes changed, cut, inserted, removed) for the fuzz tests."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import warnings
import zipfile
from pathlib import Path

from tests.support.needs import missing


def zipped(files: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A sound zip of ``[(name, bytes)]``; a name given twice is written twice (zipfile
    only warns)."""
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name"
        with zipfile.ZipFile(out, "w", method) as archive:
            for name, content in files:
                archive.writestr(name, content)
    return out.getvalue()


def encrypted(files: dict[str, bytes], name: str) -> bytes:
    """The files zipped by Info-ZIP's ``zip``, ``name`` with a password (``zip -P``) as a
    participant would, the others without."""
    if shutil.which("zip") is None:
        missing("needs Info-ZIP's zip (apt-get install zip) to make a password-protected zip")
    with tempfile.TemporaryDirectory() as folder:
        for name, content in files.items():
            (Path(folder) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(folder) / name).write_bytes(content)
        subprocess.run(["zip", "-q", "-P", "secret", "out.zip", name], cwd=folder, check=True)
        subprocess.run(["zip", "-q", "out.zip", *(f for f in files if f != name)], cwd=folder, check=True)
        return (Path(folder) / "out.zip").read_bytes()


def _member_data(data: bytes, name: str) -> tuple[int, int]:
    """Where the named member's compressed bytes lie in the zip: (start, length)."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
    offset = info.header_offset
    name_length = int.from_bytes(data[offset + 26 : offset + 28], "little")
    extra_length = int.from_bytes(data[offset + 28 : offset + 30], "little")
    return offset + 30 + name_length + extra_length, info.compress_size


def corrupt_deflate(files: dict[str, bytes], name: str) -> bytes:
    """The member's deflate stream overwritten with an invalid block type (zlib.error)."""
    data = bytearray(zipped(list(files.items())))
    start, length = _member_data(bytes(data), name)
    data[start : start + length] = b"\xff" * length
    return bytes(data)


def bad_crc(files: dict[str, bytes], name: str) -> bytes:
    """A stored member with one byte changed: the bytes read no longer match the CRC."""
    data = bytearray(zipped(list(files.items()), zipfile.ZIP_STORED))
    start, _ = _member_data(bytes(data), name)
    data[start] ^= 0x01
    return bytes(data)


def truncated(files: dict[str, bytes]) -> bytes:
    """The zip cut in the middle, as an interrupted copy leaves it."""
    data = zipped(list(files.items()))
    return data[: len(data) * 2 // 3]


def twice(files: dict[str, bytes], name: str) -> bytes:
    """The files, and the named one again (another version of it)."""
    return zipped([*files.items(), (name, b"another version\n" + files[name])])


def damaged(kind: str, files: dict[str, bytes], name: str) -> bytes:
    """The files zipped with one kind of damage (one of :data:`KINDS`) done to ``name``."""
    return {
        "encrypted": lambda: encrypted(files, name),
        "corrupt deflate data": lambda: corrupt_deflate(files, name),
        "bad CRC": lambda: bad_crc(files, name),
        "truncated": lambda: truncated(files),
        "the same file twice": lambda: twice(files, name),
    }[kind]()


KINDS = ("encrypted", "corrupt deflate data", "bad CRC", "truncated", "the same file twice")
# what the problem says for each: the member is named wherever the zip still names it
SAYS = {
    "encrypted": "encrypted",
    "corrupt deflate data": "cannot be read, the zip is damaged",
    "bad CRC": "cannot be read, the zip is damaged",
    "truncated": "not a readable zip file",
    "the same file twice": "in the zip twice",
}


def mutate(data: bytes, edits: list[tuple[str, int, bytes]]) -> bytes:
    """``data`` with each edit applied: ``(kind, position, bytes)``, the position taken
    modulo the current length; kinds ``flip`` (overwrite), ``cut`` (truncate),
    ``insert`` and ``delete`` (as many bytes as given)."""
    out = bytearray(data)
    for kind, position, chunk in edits:
        at = position % max(len(out), 1)
        if kind == "flip":
            out[at : at + len(chunk)] = chunk
        elif kind == "cut":
            del out[at:]
        elif kind == "insert":
            out[at:at] = chunk
        else:
            del out[at : at + len(chunk)]
    return bytes(out)
