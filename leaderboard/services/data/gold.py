"""An organizer's gold files, checked cheaply in the request before anything is stored.

Gold comes as a source file with one or more reference files, as one M2 file, or as a
zip bundle of either (a bundle of several corpora: :mod:`.corpora`). The checks are the
scoring library's readers (line-numbered problems, as for uploads); parsing and
annotation happen later, in the worker queue (:mod:`leaderboard.services.hosting.organizer_jobs`).
A zip is bounded before it is read (:mod:`.archives`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings

import scoring

from ...models.shared_tasks import input_limits
from .archives import problem, read_zip

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


def check_gold(
    *,
    source: tuple[str, bytes] | None = None,
    references: Sequence[tuple[str, bytes]] = (),
    m2: tuple[str, bytes] | None = None,
    max_tokens: int = 1000,
) -> Gold:
    """Validate named files (``(filename, bytes)``); raises :class:`scoring.InputError`
    with every problem of every file, by file and line."""
    if m2 and (source or references):
        raise problem("give either a source with references, or one M2 file, not both")
    limits = input_limits(max_tokens)
    if m2:
        name, data = m2
        corpus = scoring.read_m2(data, name=name, limits=limits)
        if not corpus.sources:
            raise problem("the file has no 'S' line: no sentence", name)
        source_text = "".join(" ".join(tokens) + "\n" for tokens in corpus.sources)
        return Gold(
            source=source_text,
            m2=_text(data),
            n_sentences=len(corpus.sources),
            n_references=max(len(corpus.annotator_ids), 1),
        )
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
        source=_text(source[1]),
        references=tuple((PurePosixPath(n).stem, _text(d)) for n, d in references),
        n_sentences=len(lines),
        n_references=len(references),
    )


def _text(data: bytes) -> str:
    """The readers accepted it: UTF-8, a BOM dropped, CRLF normalised."""
    return data.decode("utf-8-sig").replace("\r\n", "\n")


def unpack_bundle(name: str, data: bytes) -> dict:
    """``check_gold`` keyword arguments from a zip: one ``*.m2``, or a source (named
    source/src/input/orig) with reference text files (every other ``*.txt``, by name)."""
    members = read_zip(
        name, data, max_members=MAX_BUNDLE_MEMBERS, max_bytes=int(settings.GEC_MAX_GOLD_MB * 1024 * 1024)
    )
    files = {}
    for path, content in members.items():
        filename = PurePosixPath(path).name
        if filename in files:
            raise problem(f"two files named {filename} in the bundle", name)
        files[filename] = content
    return classify(name, files)


def classify(name: str, files: dict[str, bytes]) -> dict:
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
        raise problem(
            "name exactly one file source.txt (or src, input, orig) in the bundle; found "
            f"{', '.join(sorted(files)) or 'nothing'}",
            name,
        )
    references = [(f, files[f]) for f in sorted(files) if f != sources[0]]
    return {"source": (sources[0], files[sources[0]]), "references": references}
