"""An organizer's gold files, checked cheaply in the request before anything is stored.

Gold comes as a source file with one or more reference files, as one M2 file, or as a
zip bundle of either. The checks are the scoring library's readers (line-numbered
problems, as for uploads); parsing and annotation happen later, in the worker queue
(:mod:`leaderboard.services.organizer_jobs`). A zip is bounded before it is read: member
count, uncompressed size, and no absolute paths, ``..`` or links.
"""
from __future__ import annotations

import io
import stat
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings

import scoring

MAX_BUNDLE_MEMBERS = 20
SOURCE_STEMS = ("source", "src", "input", "orig")


@dataclass
class Gold:
    """Checked gold texts: ``source`` + ``references`` [(name, text)], or ``m2``."""

    source: str = ""
    references: tuple[tuple[str, str], ...] = ()
    m2: str = ""
    n_sentences: int = 0
    n_references: int = 0


def problem(message: str, file: str = "") -> scoring.InputError:
    return scoring.InputError([scoring.Problem(0, message, file)])


def check_gold(*, source: tuple[str, bytes] | None = None, references: list[tuple[str, bytes]] = (), m2: tuple[str, bytes] | None = None, max_tokens: int = 1000) -> Gold:
    """Validate named files (``(filename, bytes)``); raises :class:`scoring.InputError`
    with every problem of every file, by file and line."""
    if m2 and (source or references):
        raise problem("give either a source with references, or one M2 file, not both")
    limits = scoring.Limits(line_tokens=max_tokens)
    if m2:
        name, data = m2
        corpus = scoring.read_m2(data, name=name, limits=limits)
        if not corpus.sources:
            raise problem("the file has no 'S' line: no sentence", name)
        source_text = "".join(" ".join(tokens) + "\n" for tokens in corpus.sources)
        return Gold(source=source_text, m2=_text(data), n_sentences=len(corpus.sources), n_references=max(len(corpus.annotator_ids), 1))
    if not source or not references:
        raise problem("give a source file and at least one reference file (or one M2 file)")
    lines = scoring.read_text(source[1], name=source[0], limits=limits)
    problems = []
    for name, data in references:
        try:
            scoring.read_text(data, name=name, expected_lines=len(lines), limits=limits)
        except scoring.InputError as error:
            problems.extend(error.problems)
    if problems:
        raise scoring.InputError(problems)
    return Gold(
        source=_text(source[1]), references=tuple((PurePosixPath(n).stem, _text(d)) for n, d in references),
        n_sentences=len(lines), n_references=len(references),
    )


def _text(data: bytes) -> str:
    """The readers accepted it: UTF-8, a BOM dropped, CRLF normalised."""
    return data.decode("utf-8-sig").replace("\r\n", "\n")


def unpack_bundle(name: str, data: bytes) -> dict:
    """``check_gold`` keyword arguments from a zip: one ``*.m2``, or a source (named
    source/src/input/orig) with reference text files (every other ``*.txt``, by name)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir() and not _ignored(m.filename)]
    except (zipfile.BadZipFile, OSError) as error:
        raise problem(f"not a readable zip file ({error})", name) from error
    if len(members) > MAX_BUNDLE_MEMBERS:
        raise problem(f"{len(members)} files in the bundle; at most {MAX_BUNDLE_MEMBERS}", name)
    limit = int(settings.GEC_MAX_GOLD_MB * 1024 * 1024)
    if sum(m.file_size for m in members) > limit:
        raise problem(f"the bundle unpacks to more than {settings.GEC_MAX_GOLD_MB:g} MB", name)
    files, total = {}, 0
    for member in members:
        path = PurePosixPath(member.filename)
        if path.is_absolute() or ".." in path.parts or "\\" in member.filename:
            raise problem(f"{member.filename}: paths in the bundle must be relative, without '..'", name)
        if stat.S_ISLNK(member.external_attr >> 16):
            raise problem(f"{member.filename}: links are not accepted", name)
        with archive.open(member) as handle:
            content = handle.read(limit - total + 1)  # the header's size may lie
        total += len(content)
        if total > limit:
            raise problem(f"the bundle unpacks to more than {settings.GEC_MAX_GOLD_MB:g} MB", name)
        if path.name in files:
            raise problem(f"two files named {path.name} in the bundle", name)
        files[path.name] = content
    return _classify(name, files)


def _ignored(filename: str) -> bool:
    """Hidden files and macOS resource forks (``.DS_Store``, ``__MACOSX/``)."""
    parts = PurePosixPath(filename).parts
    return any((part.startswith(".") and part not in (".", "..")) or part == "__MACOSX" for part in parts)


def _classify(name: str, files: dict[str, bytes]) -> dict:
    m2 = [f for f in files if f.lower().endswith(scoring.M2_SUFFIXES)]
    others = sorted(f for f in files if f not in m2 and not f.lower().endswith(".txt"))
    if others:
        raise problem(f"a bundle holds .txt files or one .m2 file; found {', '.join(others)}", name)
    if m2:
        if len(files) > 1:
            raise problem(f"an M2 bundle holds one file; this one has {', '.join(sorted(files))}", name)
        return {"m2": (m2[0], files[m2[0]])}
    sources = [f for f in files if PurePosixPath(f).stem.lower() in SOURCE_STEMS]
    if len(sources) != 1:
        raise problem(f"name exactly one file source.txt (or src, input, orig) in the bundle; found {', '.join(sorted(files)) or 'nothing'}", name)
    references = [(f, files[f]) for f in sorted(files) if f != sources[0]]
    return {"source": (sources[0], files[sources[0]]), "references": references}
