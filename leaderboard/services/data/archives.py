"""Zip files from outside (an organizer's gold bundle, a participant's submission),
bounded before and while they are read.

Before a byte is inflated, and before ``zipfile`` reads the central directory: the member
count and the directory's size from the end record; then the sizes the headers declare and each
member's compression ratio (a zip bomb inflates a thousandfold; text, tenfold); no
absolute paths, ``..``, backslashes or links. Names are checked before hidden files are
left out: ``..\\cs-geccc.txt`` is one name to ``zipfile`` (a backslash is no separator in a
zip) that starts with a dot, and was dropped as hidden while the upload went on without
it. While reading, each member is read no further than the bytes still allowed, since a
header's size may lie.

Whatever the bytes are, the answer is the zip's contents or :class:`scoring.InputError`
naming the zip and the member: an encrypted member, corrupt compressed data, a
truncated archive, a bad CRC or a name given twice is the file's fault, never a 500.
"""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import PurePosixPath

import scoring

MAX_RATIO = 100  # uncompressed / compressed bytes of one member...
RATIO_FROM = 1024 * 1024  # ...checked on members larger than this (small files of repeated lines compress well)
ENCRYPTED = 0x1  # general purpose flag bit 0: the member needs a password
MAX_SKIPPED = 64  # directories, hidden files and __MACOSX entries a zip may hold beside the files counted
MAX_ENTRY_BYTES = 46 + 3 * 1024  # a central directory entry: its fixed part, then name, extra field and comment

# What zipfile (and the zlib, bz2 and lzma it calls) raises on bytes that are not a sound
# zip is not a closed list: bad headers and CRCs (BadZipFile), corrupt deflate data
# (zlib.error), a stream cut short (EOFError), offsets before the start (ValueError),
# unknown methods or flags (NotImplementedError), a password needed (RuntimeError), a
# member with an empty name (IndexError, found by tests/web/test_zip_fuzz.py). So any
# exception from zipfile's calls on these bytes is the file's fault; the calls caught
# are zipfile's alone, so that no error of ours is taken for the file's.
UNREADABLE = Exception


def problem(message: str, file: str = "") -> scoring.InputError:
    return scoring.InputError([scoring.Problem(0, message, file)])


def read_zip(name: str, data: bytes, *, max_members: int, max_bytes: int) -> dict[str, bytes]:
    """``{relative path: content}`` of the zip's files (hidden files and ``__MACOSX`` left
    out); raises :class:`scoring.InputError` naming the zip and the member at fault."""
    _check_directory(name, data, max_members)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except UNREADABLE as error:
        raise problem(f"not a readable zip file ({_reason(error)})", name) from error
    members = _listed(name, archive)
    twice = _twice(members)
    if twice:
        raise problem(f"{twice}: in the zip twice; keep one copy", name)
    if len(members) > max_members:
        raise problem(f"{len(members)} files in the zip; at most {max_members}", name)
    if sum(m.file_size for m in members) > max_bytes:
        raise problem(f"the zip unpacks to more than {max_bytes / 1024 / 1024:g} MB", name)
    files, total = {}, 0
    for member in members:
        path = PurePosixPath(member.filename)
        refused = _refused(member)
        if refused:
            raise problem(f"{member.filename}: {refused}", name)
        try:
            with archive.open(member) as handle:
                content = handle.read(max_bytes - total + 1)
        except UNREADABLE as error:
            raise problem(
                f"{member.filename}: cannot be read, the zip is damaged ({_reason(error)}); zip the files again", name
            ) from error
        total += len(content)
        if total > max_bytes:
            raise problem(f"the zip unpacks to more than {max_bytes / 1024 / 1024:g} MB", name)
        files[str(path)] = content
    return files


def _check_directory(name: str, data: bytes, max_members: int) -> None:
    """The member count and the central directory's size, read from the zip's end record
    before ``zipfile`` builds one object per member: 100,000 empty members (9 MB) took
    6-7 s to refuse. A directory larger than ``max_members`` entries can take is refused
    too, since ``zipfile`` reads every entry it holds whatever the count says."""
    try:
        end = zipfile._EndRecData(io.BytesIO(data))  # type: ignore[attr-defined]  # zipfile's own end-record reader
    except UNREADABLE as error:
        raise problem(f"not a readable zip file ({_reason(error)})", name) from error
    if end is None:
        raise problem("not a readable zip file (no end of central directory record)", name)
    count, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
    if count > max_members + MAX_SKIPPED:
        raise problem(f"{count} files in the zip; at most {max_members}", name)
    if size > (max_members + MAX_SKIPPED) * MAX_ENTRY_BYTES:
        raise problem(f"the zip's directory has {size} bytes, more than {max_members} files need", name)


def _listed(name: str, archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The members to read: every name checked first (:func:`_unsafe`), then directories,
    hidden files and ``__MACOSX`` left out."""
    entries = archive.infolist()
    for entry in entries:
        unsafe = _unsafe(entry.filename)
        if unsafe:
            raise problem(f"{entry.filename}: {unsafe}", name)
    try:
        return [m for m in entries if not m.is_dir() and not _ignored(m.filename)]
    except UNREADABLE as error:  # an empty name (ZipInfo.is_dir reads its last character)
        raise problem(f"not a readable zip file ({_reason(error)})", name) from error


def names(data: bytes, *, max_members: int) -> list[str] | None:
    """The file names of a zip's central directory (nothing inflated), or None when the
    bytes are not a readable zip or hold more than ``max_members`` (counted from the end
    record first, as :func:`read_zip` does: listing 100,000 members took 10 s)."""
    try:
        _check_directory("", data, max_members)
    except scoring.InputError:
        return None
    try:
        return [n for n in zipfile.ZipFile(io.BytesIO(data)).namelist() if not n.endswith("/")]
    except UNREADABLE:
        return None


def _refused(member: zipfile.ZipInfo) -> str:
    """Why a member is not inflated at all, from its header alone, or ''."""
    if stat.S_ISLNK(member.external_attr >> 16):
        return "links are not accepted"
    if member.flag_bits & ENCRYPTED:
        return "encrypted (the zip has a password); zip the files again without one"
    if member.file_size > RATIO_FROM and member.file_size > MAX_RATIO * max(member.compress_size, 1):
        return f"compressed more than {MAX_RATIO} to 1; not a text file"
    return ""


def _twice(members: list[zipfile.ZipInfo]) -> str:
    """The first path given twice (``./a.txt`` is ``a.txt``): one copy would silently win."""
    seen = set()
    for member in members:
        path = str(PurePosixPath(member.filename))
        if path in seen:
            return path
        seen.add(path)
    return ""


def _reason(error: BaseException) -> str:
    """The library's words, or the kind of error when it gave none (an EOFError)."""
    if str(error):
        return str(error)
    return "cut short" if isinstance(error, EOFError) else type(error).__name__


def _unsafe(filename: str) -> str:
    """Why a member's name is refused, or ''. A zip separates folders with '/' only: a
    backslash is a Windows path written by the tool that made the zip (or a way past the
    checks), never part of a file's name here."""
    if "\\" in filename:
        return (
            "a backslash in the name, where a zip separates folders with '/' only: zip the files again "
            "so that each is named as it should be read (cs-geccc.txt, or folder/cs-geccc.txt)"
        )
    path = PurePosixPath(filename)
    if path.is_absolute() or ".." in path.parts:
        return "paths in the zip must be relative, without '..'"
    return ""


def _ignored(filename: str) -> bool:
    """Hidden files and macOS resource forks (``.DS_Store``, ``__MACOSX/``)."""
    parts = PurePosixPath(filename).parts
    return any((part.startswith(".") and part not in (".", "..")) or part == "__MACOSX" for part in parts)
