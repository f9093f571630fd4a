"""Phases of several corpora, as MultiGEC-2025 ran them: gold bundles, zip submissions,
and an upload's status gathered from its corpora.

A corpus is a phase of its own under the phase participants see (``Phase.parent``; see
:class:`leaderboard.models.Phase`), so each corpus is prepared, scored, pooled and shown
by the code every phase uses. What is particular to several corpora is here:

- a gold bundle: a zip (or, for the demo, a folder) with one folder per corpus, named
  after the corpus, holding ``source.txt``, reference ``.txt`` files (or one ``.m2``) and
  an optional ``corpus.json`` (``{"language": "cs", "pipeline": "tokens",
  "max_tokens": 5000}``); without ``language``, a name such as ``cs-geccc`` gives it;
- a submission: a zip with one file per corpus, ``<corpus>.txt`` (corpora may be
  missing), or one corpus named with the upload;
- an upload's status: scored once all its corpora are, failed if all failed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.conf import settings

import scoring

from ...models import Dataset, Phase, Submission
from . import archives
from .archives import problem, read_zip
from .gold import Gold, check_gold, classify

MANIFEST = "corpus.json"
MAX_CORPORA = 50
MAX_FILES_PER_CORPUS = 10  # a source, references (MultiGEC: up to 4), a manifest
CORPUS_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,59}")
ZIP_SUFFIX = ".zip"


@dataclass
class CorpusGold:
    """One corpus of a bundle: its name, language, pipeline, line limit and checked gold."""

    name: str
    lang: str
    pipeline: str
    max_tokens: int
    gold: Gold


# -- gold bundles -----------------------------------------------------------------------


def is_corpora_bundle(data: bytes) -> bool:
    """A zip whose files lie in folders, more than one or with a ``corpus.json`` (read
    from its central directory alone)."""
    names = archives.names(data, max_members=MAX_CORPORA * MAX_FILES_PER_CORPUS)
    if names is None:
        return False  # read_zip, on the plain bundle's path, says what is wrong
    folders = {PurePosixPath(n).parts[0] for n in names if len(PurePosixPath(n).parts) == 2}
    return len(folders) > 1 or any(PurePosixPath(n).name == MANIFEST for n in names)


def unpack_corpora(name: str, data: bytes) -> list[CorpusGold]:
    """The corpora of a zip bundle, every one checked; raises :class:`scoring.InputError`
    with every problem, each naming its corpus, file and line."""
    files = read_zip(
        name,
        data,
        max_members=MAX_CORPORA * MAX_FILES_PER_CORPUS,
        max_bytes=int(settings.GEC_MAX_GOLD_MB * 1024 * 1024),
    )
    folders: dict[str, dict[str, bytes]] = {}
    for path, content in files.items():
        parts = PurePosixPath(path).parts
        if len(parts) != 2:
            raise problem(
                f"{path}: a corpus bundle holds one folder per corpus, each with its files (no deeper folders, "
                "no loose files)",
                name,
            )
        folders.setdefault(parts[0], {})[parts[1]] = content
    return checked_corpora(name, folders)


def read_corpora_dir(root: Path) -> list[CorpusGold]:
    """The corpora of a folder laid out as a bundle (the demo's data)."""
    folders = {
        folder.name: {f.name: f.read_bytes() for f in folder.iterdir() if f.is_file()}
        for folder in sorted(root.iterdir())
        if folder.is_dir() and (folder / "source.txt").exists()
    }
    return checked_corpora(str(root), folders)


def checked_corpora(name: str, folders: dict[str, dict[str, bytes]]) -> list[CorpusGold]:
    if not folders:
        raise problem("no corpus folder found", name)
    if len(folders) > MAX_CORPORA:
        raise problem(f"{len(folders)} corpora; at most {MAX_CORPORA}", name)
    corpora: list = []
    problems: list[scoring.Problem] = []
    for folder, files in sorted(folders.items()):
        try:
            corpora.append(corpus_gold(folder, files))
        except scoring.InputError as error:
            problems.extend(
                scoring.Problem(p.line, p.message, f"{folder}/{p.file}" if p.file else folder) for p in error.problems
            )
    if problems:
        raise scoring.InputError(problems)
    return corpora


def corpus_gold(name: str, files: dict[str, bytes]) -> CorpusGold:
    """One corpus folder: its manifest read, its gold checked with its own line limit."""
    if not CORPUS_NAME.fullmatch(name):
        raise problem("name a corpus folder with lower-case letters, digits, - and _ (e.g. cs-natwebinf)")
    manifest = read_manifest(files.pop(MANIFEST, b"{}"))
    files = {n: data for n, data in files.items() if n.lower().endswith((".txt", *scoring.M2_SUFFIXES))}
    lang = str(manifest.get("language") or name.split("-")[0])
    if lang not in scoring.pipelines.languages():
        raise problem(
            f'language {lang!r} is not one the platform has a pipeline for; give it as "language" in {MANIFEST}',
            MANIFEST,
        )
    pipeline = str(manifest.get("pipeline") or "")
    if pipeline and pipeline not in scoring.pipelines.available_pipelines(lang):
        raise problem(
            f"pipeline {pipeline!r} is not available for {lang}; choose one of "
            f"{', '.join(scoring.pipelines.available_pipelines(lang))}",
            MANIFEST,
        )
    max_tokens = manifest.get("max_tokens", Dataset._meta.get_field("max_tokens").default)
    if (
        not isinstance(max_tokens, int)
        or isinstance(max_tokens, bool)
        or not 1 <= max_tokens <= scoring.MAX_LINE_TOKENS
    ):
        raise problem(
            f"max_tokens must be a whole number from 1 to {scoring.MAX_LINE_TOKENS} (the longest line every "
            f"metric is bounded on); got {json.dumps(max_tokens)}",
            MANIFEST,
        )
    gold = check_gold(**classify("", files), max_tokens=max_tokens)  # problems are named after the folder by the caller
    return CorpusGold(name, lang, pipeline, max_tokens, gold)


def read_manifest(data: bytes) -> dict:
    try:
        manifest = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise problem(f"not a JSON object ({error})", MANIFEST) from error
    except RecursionError:  # arrays nested a thousand deep: a bad file, never a 500
        raise problem("not a JSON object (nested too deep)", MANIFEST) from None
    if not isinstance(manifest, dict):
        raise problem("not a JSON object", MANIFEST)
    return manifest


# -- submissions ------------------------------------------------------------------------


def split_upload(phase: Phase, filename: str, content: bytes, corpus: str = "") -> list[tuple[Phase, str, bytes]]:
    """``[(corpus phase, file name, bytes)]`` of an upload to ``phase``: the file itself
    for a one-corpus phase; for several corpora, the zip's ``<corpus>.txt`` files, the
    one corpus named with the upload, or the one file named after its corpus
    (``uk-ua-gec.txt``, as in a zip)."""
    if phase.parent is not None:
        raise problem(f"submit to phase {phase.parent.kind} naming corpus {phase.corpus}")
    corpora = {c.corpus: c for c in phase.corpora()} if phase.is_multi_corpus else {}
    if not corpora:
        if corpus:
            raise problem(f"this phase has one corpus; upload its file without naming a corpus (got {corpus!r})")
        return [(phase, filename, content)]
    if corpus:
        if corpus not in corpora:
            raise problem(f"no corpus {corpus!r} in this phase; its corpora: {', '.join(corpora)}")
        return [(corpora[corpus], f"{corpus}{PurePosixPath(filename).suffix or '.txt'}", content)]
    named = PurePosixPath(filename)
    if (
        not filename.lower().endswith(ZIP_SUFFIX)
        and named.stem in corpora
        and named.suffix.lower() in (".txt", *scoring.M2_SUFFIXES)
    ):
        return [(corpora[named.stem], named.name, content)]  # one corpus's file, named as in a zip
    if not filename.lower().endswith(ZIP_SUFFIX):
        raise problem(
            f"this phase has {len(corpora)} corpora ({', '.join(corpora)}): upload a zip with one file per "
            "corpus, named <corpus>.txt, or name the corpus of this file",
            filename,
        )
    files = read_zip(filename, content, max_members=len(corpora), max_bytes=phase.max_upload_bytes() * len(corpora))
    return _zip_outputs(filename, files, corpora)


def _zip_outputs(filename: str, files: dict[str, bytes], corpora: dict[str, Phase]) -> list[tuple[Phase, str, bytes]]:
    """The zip's files matched to corpora by name, in the phase's corpus order."""
    outputs, unknown = {}, []
    for path, data in files.items():
        member = PurePosixPath(path)
        if member.stem not in corpora or member.suffix.lower() not in (".txt", *scoring.M2_SUFFIXES):
            unknown.append(path)
        elif member.stem in outputs:
            raise problem(f"two files for corpus {member.stem}", filename)
        else:
            outputs[member.stem] = (corpora[member.stem], member.name, data)
    if unknown:
        raise problem(
            f"{', '.join(unknown)}: name each file after its corpus, one of {', '.join(f'{c}.txt' for c in corpora)}",
            filename,
        )
    if not outputs:
        raise problem(
            "no corpus file in the zip; name each file after its corpus, one of "
            f"{', '.join(f'{c}.txt' for c in corpora)}",
            filename,
        )
    return [outputs[name] for name in corpora if name in outputs]


def settle_upload(upload_id: int) -> bool:
    """The status of an upload of several corpora, from its corpus outputs (called when
    one of them ends); True once every one has ended."""
    upload = Submission.objects.select_for_update().get(pk=upload_id)
    outputs = list(upload.corpus_outputs.select_related("phase").order_by("pk"))
    ended = [o for o in outputs if o.status in (Submission.Status.SCORED, Submission.Status.FAILED)]
    failed = [o for o in ended if o.status == Submission.Status.FAILED]
    fields = {
        "progress": sum(o.progress for o in outputs) / max(len(outputs), 1),
        "error": "\n".join(f"{o.phase.corpus}: {o.error}" for o in failed),
    }
    if len(ended) < len(outputs):
        fields["status"] = Submission.Status.RUNNING
    elif len(failed) == len(outputs):
        fields.update(status=Submission.Status.FAILED, failure_cause=failed[0].failure_cause)
    else:
        fields.update(
            status=Submission.Status.SCORED,
            scored_at=max(o.scored_at for o in ended if o.scored_at),
            signature="\n".join(f"{o.phase.corpus}: {o.signature}" for o in ended if o.signature),
        )
    Submission.objects.filter(pk=upload_id).update(**fields)
    return len(ended) == len(outputs)
