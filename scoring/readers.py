"""Readers for the input files of docs/contracts.md section 1: plain text and M2.

Both validate everything they can and raise one :class:`InputError` listing every
problem by line number, so a participant fixes a file in one round trip.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .errant.edits import NOOP, Edit
from .errors import InputError, Problem, ProblemCollector
from .limits import DEFAULT_LIMITS, LimitCheck, Limits

ALLOWED_CONTROL = {"\t"}


def _decode(data: bytes, problems: ProblemCollector) -> str | None:
    """UTF-8 text with a BOM removed and CRLF normalised; None when undecodable."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        for number, raw in enumerate(data.split(b"\n"), start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                problems.add(number, f"invalid UTF-8 at byte {exc.start} of the line")
        return None
    return text.replace("\r\n", "\n")


def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline is optional
    return lines


# Unicode's Cc category is exactly U+0000-U+001F and U+007F-U+009F; tab is allowed.
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _check_characters(number: int, line: str, problems: ProblemCollector) -> None:
    if CONTROL.search(line) is None:  # one regex scan instead of a category lookup per character
        return
    for column, char in enumerate(line, start=1):
        if char not in ALLOWED_CONTROL and unicodedata.category(char) == "Cc":
            name = "NUL" if char == "\0" else f"control character U+{ord(char):04X}"
            problems.add(number, f"{name} at column {column}")
            return


def as_bytes(source: bytes | str | Path) -> tuple[bytes, str]:
    """Bytes and a display name from a path or from raw bytes."""
    if isinstance(source, bytes):
        return source, ""
    path = Path(source)
    return path.read_bytes(), str(path)


def read_text(
    source: bytes | str | Path,
    *,
    name: str | None = None,
    expected_lines: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[str]:
    """One string per sentence from a UTF-8, one-sentence-per-line file.

    Raises :class:`InputError` naming every bad line: undecodable bytes, control
    characters, a line or the file over ``limits``, a line count other than
    ``expected_lines``, or an empty file.
    """
    data, path_name = as_bytes(source)
    problems = ProblemCollector(name if name is not None else path_name)
    text = _decode(data, problems)
    if text is None:
        problems.raise_if_any()
    lines = _split_lines(text or "")  # None raised above
    if not lines or (len(lines) == 1 and not lines[0].strip() and (expected_lines or 0) != 1):
        problems.add(0, "the file is empty")
        problems.raise_if_any()
    check = LimitCheck(limits, problems)
    for number, line in enumerate(lines, start=1):
        _check_characters(number, line, problems)
        check.line(number, len(line.split()), len(line))
    if expected_lines is not None and len(lines) != expected_lines:
        if len(lines) > expected_lines:
            problems.add(
                expected_lines + 1, f"extra line: the source has {expected_lines} lines, this file {len(lines)}"
            )
        else:
            problems.add(
                len(lines), f"the file ends here: the source has {expected_lines} lines, this file {len(lines)}"
            )
    problems.raise_if_any()
    return lines


@dataclass
class M2Corpus:
    """An M2 file: source tokens and, per sentence, each annotator's edits.

    ``annotations[i]`` maps annotator id to its edit list for sentence ``i``; a noop
    annotation is an empty list, an annotator without any ``A`` line is absent (as in
    ``errant_compare``, which then never considers it for that sentence).
    """

    sources: list[list[str]]
    annotations: list[dict[int, list[Edit]]]
    annotator_ids: list[int] = field(default_factory=list)
    line_numbers: list[int] = field(default_factory=list)  # of each ``S`` line


def read_m2(
    source: bytes | str | Path,
    *,
    name: str | None = None,
    expected_lines: int | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> M2Corpus:
    """Parse an M2 file (``S`` and ``A`` lines, blocks separated by blank lines).

    Runs of blank lines are accepted (CLEME's demo uses two). Raises :class:`InputError`
    naming every malformed line, and every line over ``limits``: an ``S`` line, a
    correction, or the sentence an annotator's edits could make of a source (its tokens
    plus every correction's, checked on the ``S`` line).
    """
    data, path_name = as_bytes(source)
    problems = ProblemCollector(name if name is not None else path_name)
    text = _decode(data, problems)
    if text is None:
        problems.raise_if_any()
    sources: list[list[str]] = []
    annotations: list[dict[int, list[Edit]]] = []
    line_numbers: list[int] = []
    check = LimitCheck(limits, problems)
    added: dict[int, int] = {}  # per annotator, the correction tokens of the current block
    in_block = False
    for number, line in enumerate(_split_lines(text or ""), start=1):  # None raised above
        _check_characters(number, line, problems)
        if not line.strip():
            in_block = False
            continue
        if line.startswith("S"):
            if line != "S" and not line.startswith("S "):
                problems.add(number, "expected 'S <tokens>'")
                continue
            _check_block(line_numbers, sources, added, limits, problems)
            sources.append(line[2:].split())
            annotations.append({})
            line_numbers.append(number)
            check.line(number, len(sources[-1]), len(line))
            added = {}
            in_block = True
        elif line.startswith("A "):
            if not in_block:
                problems.add(number, "an 'A' line outside a block: each block starts with an 'S' line")
                continue
            _add_edit(number, line, len(sources[-1]), annotations[-1], added, check, problems)
        else:
            problems.add(number, "expected an 'S' or 'A' line")
    _check_block(line_numbers, sources, added, limits, problems)
    if not sources and not problems.problems:
        problems.add(0, "the file is empty")
    if expected_lines is not None and sources and len(sources) != expected_lines:
        problems.add(0, f"{len(sources)} sentences, the source has {expected_lines}")
    problems.raise_if_any()
    ids = sorted({coder for block in annotations for coder in block})
    return M2Corpus(sources, annotations, ids, line_numbers)


def _add_edit(
    number: int,
    line: str,
    source_tokens: int,
    block: dict[int, list[Edit]],
    added: dict[int, int],
    check: LimitCheck,
    problems: ProblemCollector,
) -> None:
    """One ``A`` line into its annotator's edits of the block (an annotator with no change still counts)."""
    edit = _parse_edit_line(number, line, source_tokens, problems)
    if edit is None:
        return
    coder, parsed = edit
    coder_edits = block.setdefault(coder, [])
    n_tokens = len(parsed.correction.split()) if parsed is not None else 0
    check.line(number, n_tokens, len(line), "the correction")
    if parsed is not None and n_tokens <= check.limits.line_tokens:  # a longer one is reported already
        coder_edits.append(parsed)
        added[coder] = added.get(coder, 0) + n_tokens


def _check_block(
    line_numbers: list[int], sources: list[list[str]], added: dict[int, int], limits: Limits, problems: ProblemCollector
) -> None:
    """Report, on the block's ``S`` line, an annotator whose edits could make a sentence
    longer than a line may be."""
    for coder, n_added in added.items():
        if len(sources[-1]) + n_added > limits.line_tokens:
            problems.add(
                line_numbers[-1],
                f"annotator {coder}'s corrections could make a sentence of {len(sources[-1]) + n_added} "
                f"tokens, over the limit of {limits.line_tokens} per line",
            )


def _parse_edit_line(number: int, line: str, n_tokens: int, problems: ProblemCollector):
    """(coder, Edit or None for noop) from an ``A`` line, or None after reporting a problem."""
    fields = line[2:].split("|||")
    if len(fields) < 6:
        problems.add(
            number,
            "an 'A' line needs 6 fields separated by '|||': span, type, correction, required, comment, annotator",
        )
        return None
    span = fields[0].split()
    try:
        start, end = int(span[0]), int(span[1])
        coder = int(fields[-1])
    except (ValueError, IndexError):
        problems.add(
            number, "span and annotator id must be integers, e.g. 'A 3 4|||R:VERB|||go|||REQUIRED|||-NONE-|||0'"
        )
        return None
    edit_type, correction = fields[1], fields[2]
    if edit_type == NOOP or (start, end) == (-1, -1):
        return coder, None
    if not 0 <= start <= end <= n_tokens:
        problems.add(number, f"span {start} {end} is outside the sentence of {n_tokens} tokens")
        return None
    if correction == "-NONE-":
        correction = ""
    return coder, Edit(start, end, " ".join(correction.split()), edit_type)


def problem(line: int, message: str, file: str = "") -> InputError:
    """A single-problem :class:`InputError`, for checks made after reading."""
    return InputError([Problem(line, message, file)])
