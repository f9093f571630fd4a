"""The BERTScore model as files a worker can run without torch: an ONNX graph and a tokenizer spec.

Exporting needs torch, transformers and bert-score, and about 350 MB more than running
the graph; holding them cost a worker about 600 MB more than the graph alone. So a
child process exports once per machine, beside the compiled kernels, and workers read
the files (:mod:`scoring.similarity.bertscore`):

* ``<key>.onnx``: the model's last-layer embeddings (``scoring.similarity.encoders.onnx_graph``);
* ``<key>.tokenizer.json``: its tokenizer as a :class:`~scoring.similarity.wordpiece.WordPieceSpec`,
  written only when :class:`~scoring.similarity.wordpiece.WordPiece` gives bert-score's own ids on
  every check sentence. A tokenizer it does not reproduce gets no spec, and workers load
  transformers for it as before.

The key hashes the model's path, the layers and the versions of everything that shapes
the files, so an upgrade exports again.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

from ..errant.kernels import kernel_dir
from .wordpiece import SPEC_VERSION, WordPiece, WordPieceSpec

EXPORT_TIMEOUT = 900  # seconds; the export itself takes about 10 s

CHECK_SENTENCES = [  # the export child's proof that the spec encodes as bert-score does
    "He go to school yesterday , and I has a apple .",
    "Héllo Wörld , naïve café ! ΟΔΟΣ Straße İstanbul",
    "中文 和 English mixed ； ｆｕｌｌ width",
    "a[SEP]b [CLS] [MASK] [UNK] [PAD] [cls]",
    "tab\there and nbsp\u00a0here \u2028 line separator",
    "control\x00char \ufffd replacement \u200b zero width \x85 next line",
    "e\u0301 combining accent ; ﬁ ligature ½ ² Ⅻ",
    "don't won't ca n't (parenthesis) \"quotes\" ... $5 #tag @user ^_^ `x`",
    "Съешь же ещё этих мягких французских булок . Ґанок , їжак !",
    "Příliš žluťoučký kůň úpěl ďábelské ódy . Þetta er íslenska .",
    "antidisestablishmentarianism " + "x" * 120,
    "word " * 600,
]


class ExportedModel(NamedTuple):
    graph: Path | None  # None: the export failed
    tokenizer: WordPieceSpec | None  # None: transformers' tokenizer is needed


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def export_paths(model: str, layers: int | None) -> tuple[Path, Path]:
    """Where the graph and the spec of (model, layers) are kept on this machine."""
    versions = "|".join(
        [
            str(Path(model).resolve()),
            str(layers),
            f"spec{SPEC_VERSION}",
            *(_version(p) for p in ("torch", "transformers", "onnxruntime", "bert-score")),
        ]
    )
    stem = f"bertscore-{hashlib.sha256(versions.encode()).hexdigest()[:16]}"
    return kernel_dir() / f"{stem}.onnx", kernel_dir() / f"{stem}.tokenizer.json"


def exported(model: str, layers: int | None) -> ExportedModel:
    """The files of (model, layers), exported by a child process on first use."""
    graph, spec = export_paths(model, layers)
    if not graph.exists():
        package_root = str(Path(__file__).resolve().parents[2])  # the child imports this package from any directory
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        subprocess.run(
            [sys.executable, "-m", "scoring.similarity.export", model, str(layers)],
            capture_output=True,
            timeout=EXPORT_TIMEOUT,
            env=env,
        )
    return ExportedModel(graph if graph.exists() else None, WordPieceSpec.load(spec))


def export(model: str, layers: int | None) -> None:
    """The child's job: write the spec (when it checks out), then the graph, each moved
    into place at once (the graph last: its presence says the export is done)."""
    from bert_score.utils import sent_encode

    from .encoders import onnx_graph
    from .model import load_scorer

    scorer = load_scorer(model, layers)
    graph_path, spec_path = export_paths(model, layers)
    graph_path.parent.mkdir(parents=True, exist_ok=True)
    spec = WordPieceSpec.of(scorer._tokenizer)
    if spec is not None:
        wordpiece = WordPiece(spec)
        if all(wordpiece(s) == sent_encode(scorer._tokenizer, s) for s in CHECK_SENTENCES):
            _write(spec_path, spec.save)
    _write(graph_path, lambda path: path.write_bytes(onnx_graph(scorer._model, scorer._tokenizer.pad_token_id)))


def _write(target: Path, write) -> None:
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    write(partial)
    os.replace(partial, target)


if __name__ == "__main__":  # the export child: MODEL LAYERS
    export(sys.argv[1], None if sys.argv[2] == "None" else int(sys.argv[2]))
