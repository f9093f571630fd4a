"""``python -m scoring --prepared FILE``: the prepared dataset kept between CLI runs.

A worker keeps its task's prepared dataset (source parses, reference edits, every line
parsed so far, the similarity tables) in the database; the CLI had to make it again in
every process. With ``--prepared`` the CLI loads it from FILE when FILE was made from
the same inputs, and writes it back after scoring when the run added to it (new lines
parsed, a similarity table made), so a second run scores against the same gold without
parsing a reference or an earlier system's line again.

"The same inputs" is a fingerprint of the gold files' bytes, ``--tokenize``, the
dataset format, the language, the text pipeline and its versions and data, and
ERRANT's version: a FILE made from anything else
is ignored and replaced, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..dataset import FORMAT_VERSION, Dataset
from ..nlp import errant_version
from ..pipelines import pipeline_signature


def inputs_fingerprint(
    *,
    source: str | None,
    refs: list[str],
    m2: str | None,
    tokenize: bool,
    lang: str = "en",
    pipeline: str | None = None,
) -> str:
    """sha256 over what a prepared dataset is made from (reads each gold file once)."""
    made_by = {
        "format": FORMAT_VERSION,
        "tokenize": tokenize,
        "errant": errant_version(),
        "pipeline": pipeline_signature(lang, pipeline),
    }
    digest = hashlib.sha256(json.dumps(made_by, sort_keys=True).encode())
    for role, path in [("source", source), *(("ref", r) for r in refs), ("m2", m2)]:
        if path is None:
            continue
        digest.update(f"\0{role}\0".encode())
        digest.update(hashlib.sha256(Path(path).read_bytes()).digest())
    return digest.hexdigest()


def load_matching(path: str | Path, fingerprint: str) -> Dataset | None:
    """The dataset stored at ``path`` if it was made from these inputs, else None
    (missing, another gold, an older format, or not a prepared dataset at all)."""
    try:
        dataset = Dataset.load(path)
    except Exception:  # missing, unreadable, a damaged zip or DocBin: prepare afresh rather than fail the run
        return None
    return dataset if dataset.fingerprint == fingerprint else None


def size_of(dataset: Dataset) -> tuple[int, int]:
    """What a run can add: cached lines and tables (so an unchanged dataset is not rewritten)."""
    return len(dataset.lines), len(dataset.tables)


def save(dataset: Dataset, path: str | Path, fingerprint: str) -> None:
    """Write atomically: a concurrent run reads the old file or the new one, never half."""
    dataset.fingerprint = fingerprint
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(dataset.to_bytes())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@dataclass
class PreparedFile:
    """One ``--prepared FILE`` of a run: load it or make the dataset, keep what the run adds."""

    path: Path
    fingerprint: str
    size_at_load: tuple[int, int] = (-1, -1)

    def load_or(self, make: Callable[[], Dataset]) -> Dataset:
        dataset = load_matching(self.path, self.fingerprint)
        if dataset is None:
            return make()
        self.size_at_load = size_of(dataset)
        return dataset

    def keep(self, dataset: Dataset) -> None:
        """Write the dataset back if it is new or this run added lines or tables to it."""
        if size_of(dataset) != self.size_at_load:
            save(dataset, self.path, self.fingerprint)
