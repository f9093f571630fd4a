"""Running an organizer's local language model for the reference-free metrics.

Scribendi (a causal LM), SOME and IMPARA (BERT-shaped regressors) all read a model
directory an organizer names in a setting, on a device, in a dtype, in batches. This
module answers those questions once, so each metric's module holds only its formula:

* :func:`setting` / :func:`model_directory` / :func:`model_directories`: what a setting
  says, checked: a missing directory is an :class:`LMSettingError` naming the setting;
* :func:`resolve_device` (``cpu``, ``cuda``, ``auto``), :func:`resolve_dtype`,
  :func:`resolve_batch_size`: ``GEC_LM_DEVICE``, ``GEC_LM_DTYPE``, ``GEC_LM_BATCH_SIZE``,
  which every metric reads through :class:`RunSettings` with its own defaults;
* :func:`load_tokenizer`, :func:`load_causal_lm`, :func:`load_model`: the model, loaded
  once per process, offline only (nothing is fetched from a hub at run time);
* :func:`context_length` and :func:`check_context`: text past the model's context is the
  input's fault, an :class:`~scoring.errors.InputError` naming the line and the setting,
  never a silent truncation or a crash inside the model;
* :func:`model_signature`: a short hash of the directory's ``config.json``, which the
  metric's signature names, so a score says which weights made it.

A setting's problem (a directory that is not a causal LM, has no tokenizer, a device
without CUDA) is an :class:`LMSettingError`: the operator's to fix, so the message names
the environment variable. torch and transformers are imported inside the functions, so
the platform's web processes never load them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, Problem

# -- settings (docs/contracts.md lists them; tests/platform/test_docs.py finds them by the _ENV names) --
LM_MODEL_ENV = "GEC_LM_MODEL"  # Scribendi's causal LM directory
SOME_MODELS_ENV = "GEC_SOME_MODELS"  # SOME's three regressors: grammaticality,fluency,meaning
IMPARA_MODELS_ENV = "GEC_IMPARA_MODELS"  # IMPARA's quality estimator,similarity encoder
DEVICE_ENV = "GEC_LM_DEVICE"  # cpu, cuda or auto (default: auto)
DTYPE_ENV = "GEC_LM_DTYPE"  # "" = each metric's own (Scribendi: bfloat16, as its reference)
BATCH_SIZE_ENV = "GEC_LM_BATCH_SIZE"  # "" = each metric's own
QUEUE_ENV = "GEC_LM_QUEUE"  # read by the platform (leaderboard/settings.py): these metrics' queue
# The short names the metrics use.
LM_MODEL, SOME_MODELS, IMPARA_MODELS = LM_MODEL_ENV, SOME_MODELS_ENV, IMPARA_MODELS_ENV
DEVICE, DTYPE, BATCH_SIZE, QUEUE = DEVICE_ENV, DTYPE_ENV, BATCH_SIZE_ENV, QUEUE_ENV

DEVICES = ("cpu", "cuda", "auto")
DTYPES = ("float32", "bfloat16", "float16")
MAX_BATCH_SIZE = 1024
CONFIG_FILE = "config.json"
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "tokenizer.model", "vocab.json", "vocab.txt")
CAUSAL_SUFFIXES = ("ForCausalLM", "LMHeadModel")  # transformers' causal LM class names end so


class LMSettingError(RuntimeError):
    """A language-model setting that cannot serve: the message names the setting."""

    def __init__(self, setting: str, message: str):
        self.setting = setting
        super().__init__(f"{setting}: {message}")


def setting(name: str, default: str = "") -> str:
    """The environment's value of ``name``, stripped; ``default`` when unset or blank."""
    return os.environ.get(name, "").strip() or default


def offline() -> None:
    """Make sure transformers and huggingface_hub never try the network."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:  # already imported: it read the environment at import time
        setattr(constants, "HF_HUB_OFFLINE", True)  # noqa: B010 - an attribute the stubs do not declare


# -- where the model is ----------------------------------------------------------------------
def model_directory(name: str, value: str | None = None) -> Path:
    """The local model directory that setting ``name`` names (``value`` instead of the
    environment when given). Unset, missing or without ``config.json``: :class:`LMSettingError`."""
    raw = setting(name) if value is None else value.strip()
    if not raw:
        raise LMSettingError(name, "is not set; name a local model directory (nothing is fetched from a hub)")
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise LMSettingError(name, f"{raw!r} is not a directory; name a local model directory")
    if not (path / CONFIG_FILE).is_file():
        raise LMSettingError(name, f"{raw!r} has no {CONFIG_FILE}; save the model there with save_pretrained")
    return path


def model_directories(name: str, count: int, value: str | None = None) -> list[Path]:
    """``count`` comma-separated directories of setting ``name`` (SOME: 3, IMPARA: 2), each checked."""
    raw = setting(name) if value is None else value
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if len(parts) != count:
        raise LMSettingError(name, f"needs {count} comma-separated model directories, found {len(parts)}")
    return [model_directory(name, part) for part in parts]


def model_signature(path: str | Path) -> str:
    """12 hex digits of the SHA-256 of the directory's ``config.json`` read as JSON with
    sorted keys: the same weights' config gives the same hash wherever the directory lies,
    and a different model (architecture, vocabulary, size) a different one."""
    config_path = Path(path) / CONFIG_FILE
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LMSettingError("model directory", f"cannot read {config_path}: {error}") from error
    config.pop("_name_or_path", None)  # where it was saved from, not what it is
    config.pop("transformers_version", None)
    canonical = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def architectures(path: str | Path) -> list[str]:
    """The ``architectures`` the directory's config names (may be empty)."""
    try:
        config = json.loads((Path(path) / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [str(a) for a in config.get("architectures") or []]


# -- device, dtype, batch size -----------------------------------------------------------------
def resolve_device(value: str | None = None) -> str:
    """``cpu`` or ``cuda`` from ``GEC_LM_DEVICE`` (``value`` when given; default ``auto``:
    CUDA when torch sees a GPU). ``cuda`` without one is an :class:`LMSettingError`."""
    raw = (setting(DEVICE, "auto") if value is None else value.strip() or "auto").lower()
    if raw not in DEVICES:
        raise LMSettingError(DEVICE, f"{raw!r} is not one of {', '.join(DEVICES)}")
    if raw == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if raw == "cuda":
        raise LMSettingError(DEVICE, "is cuda but torch sees no CUDA device on this worker")
    return "cpu"


def resolve_dtype(default: str, value: str | None = None) -> str:
    """The dtype's name from ``GEC_LM_DTYPE`` (``value`` when given), else the metric's
    ``default``; one of :data:`DTYPES`."""
    raw = (setting(DTYPE) if value is None else value.strip()).lower() or default
    if raw not in DTYPES:
        raise LMSettingError(DTYPE, f"{raw!r} is not one of {', '.join(DTYPES)}")
    return raw


def torch_dtype(name: str) -> Any:
    """The torch dtype of a :data:`DTYPES` name."""
    import torch

    return getattr(torch, name)


def resolve_batch_size(default: int, value: str | None = None) -> int:
    """Sentences per forward pass from ``GEC_LM_BATCH_SIZE`` (``value`` when given), else
    the metric's ``default``; a positive integer up to :data:`MAX_BATCH_SIZE`."""
    raw = setting(BATCH_SIZE) if value is None else value.strip()
    if not raw:
        return default
    try:
        size = int(raw)
    except ValueError:
        raise LMSettingError(BATCH_SIZE, f"{raw!r} is not an integer") from None
    if not 1 <= size <= MAX_BATCH_SIZE:
        raise LMSettingError(BATCH_SIZE, f"{size} is not between 1 and {MAX_BATCH_SIZE}")
    return size


class RunSettings:
    """A metric's dtype and batch size, read from the settings when the model is needed, not
    when the metric is made: scores, resampling and tie groups build metric objects on
    processes that hold no model. A metric sets its reference's defaults."""

    default_dtype = "float32"
    default_batch = 32

    @functools.cached_property
    def dtype(self) -> str:
        return resolve_dtype(self.default_dtype)

    @functools.cached_property
    def batch_size(self) -> int:
        return resolve_batch_size(self.default_batch)


# -- loading ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LoadedModel:
    """A tokenizer and its model, ready on ``device`` in ``dtype`` (eval mode)."""

    tokenizer: Any
    model: Any
    device: str
    dtype: str
    path: Path
    max_length: int  # tokens the model can take at once (:func:`context_length`)


@functools.cache
def load_tokenizer(path: str, setting_name: str) -> Any:
    """The directory's tokenizer (``AutoTokenizer``), offline; none there: :class:`LMSettingError`."""
    offline()
    from transformers import AutoTokenizer

    if not any((Path(path) / name).is_file() for name in TOKENIZER_FILES):
        raise LMSettingError(setting_name, f"{path!r} has no tokenizer ({', '.join(TOKENIZER_FILES)}); save it there")
    try:
        return AutoTokenizer.from_pretrained(path, local_files_only=True)
    except Exception as error:  # transformers fails on a broken tokenizer in many ways
        raise LMSettingError(setting_name, f"{path!r} has no usable tokenizer ({_first_line(error)})") from error


def load_causal_lm(path: str | Path, setting_name: str, device: str, dtype: str) -> LoadedModel:
    """A causal LM (``AutoModelForCausalLM``) and its tokenizer. A directory whose config
    names no ``...ForCausalLM`` / ``...LMHeadModel`` class (a BERT, a classifier) is an
    :class:`LMSettingError`, not a model transformers would bolt a random head on."""
    names = architectures(path)
    if names and not any(name.endswith(CAUSAL_SUFFIXES) for name in names):
        raise LMSettingError(setting_name, f"{str(path)!r} is not a causal language model (its config names {names})")
    return load_model(str(path), setting_name, "AutoModelForCausalLM", device, dtype)


@functools.cache
def load_model(path: str, setting_name: str, auto_class: str, device: str, dtype: str) -> LoadedModel:
    """The directory's model through transformers' ``auto_class`` (e.g.
    ``AutoModelForSequenceClassification``) and its tokenizer, on ``device`` in ``dtype``,
    in eval mode; loaded once per process and arguments."""
    tokenizer = load_tokenizer(path, setting_name)
    offline()
    import torch
    import transformers

    if device == "cpu" and not os.environ.get("OMP_NUM_THREADS"):  # an operator's thread count stands
        torch.set_num_threads(max(1, len(os.sched_getaffinity(0))))
    loader = getattr(transformers, auto_class)
    try:
        model = loader.from_pretrained(path, dtype=torch_dtype(dtype), local_files_only=True)
    except Exception as error:  # corrupt weights fail in many ways (safetensors', pickle's, zip's)
        raise LMSettingError(
            setting_name, f"{path!r} cannot be loaded as {auto_class} ({_first_line(error)})"
        ) from error
    model.to(device)
    model.eval()
    return LoadedModel(tokenizer, model, device, dtype, Path(path), context_length(model, tokenizer))


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


# -- the model's context -------------------------------------------------------------------------
UNBOUNDED = 1 << 30  # a tokenizer's "no limit" is about 1e30; a model without a position limit


def context_length(model: Any, tokenizer: Any) -> int:
    """Tokens one input may hold: the model's position limit (``max_position_embeddings``
    or ``n_positions``), capped by the tokenizer's ``model_max_length`` when it sets one."""
    config = model.config
    limit = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None) or UNBOUNDED
    declared = getattr(tokenizer, "model_max_length", None) or UNBOUNDED
    return int(min(limit, declared if declared < UNBOUNDED else UNBOUNDED))


def check_context(
    lengths: Sequence[int], limit: int, setting_name: str, what: str = "line", first_line: int = 1
) -> None:
    """An :class:`InputError` naming every input (1-based from ``first_line``) whose token
    count in ``lengths`` passes ``limit``: the model cannot read it whole, and a truncated
    read would score a different text."""
    problems = [
        Problem(first_line + i, f"{what} is {n} tokens, past the {limit}-token context of the model in {setting_name}")
        for i, n in enumerate(lengths)
        if n > limit
    ]
    if problems:
        raise InputError(problems[:50])


# -- what a model costs ----------------------------------------------------------------------------
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt")


def weights_gb(paths: Sequence[str | Path]) -> float:
    """The size in GB of the weight files in ``paths`` (a stat each, nothing loaded): a
    forward pass costs about this times the tokens, which the platform's budgets use."""
    total = 0
    for path in paths:
        folder = Path(path)
        if folder.is_dir():
            total += sum(f.stat().st_size for f in folder.iterdir() if f.name.endswith(WEIGHT_SUFFIXES))
    return total / 1e9
