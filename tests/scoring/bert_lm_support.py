"""Tiny BERT-shaped models for the SOME and IMPARA tests, and gec-metrics' own code.

The models have random weights from a fixed seed and a cased WordPiece vocabulary the
test writes (special tokens, every character of the texts with its ``##`` form, and the
most frequent words), saved with ``save_pretrained``: what an organizer's directory
holds, a few hundred kB instead of 400 MB. The figures they give mean nothing; that
both implementations give the same ones does.

gec-metrics 0.1.1 is installed without its dependencies (requirements-nodeps.txt), so
its package ``__init__`` (which imports every metric, the LLM ones with openai and
outlines) is never run: :func:`gec_metrics_module` loads ``base.py`` and one metric
module under a package name of its own.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from scoring.dataset import Dataset
from scoring.hypothesis import Hypothesis
from tests.support import needs

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = 600  # whole words in the vocabulary besides the characters
REFERENCE_PACKAGE = "gec_metrics_reference"


def write_vocabulary(path: Path, texts: Iterable[str], words: int = WORDS) -> Path:
    """A WordPiece vocabulary covering ``texts``: any word splits into known pieces, the
    ``words`` most frequent ones are whole pieces (ties in the words' order: the same file
    every time)."""
    texts = list(texts)
    characters = sorted({c for text in texts for c in text if not c.isspace()})
    counts = Counter(word for text in texts for word in text.split())
    frequent = [w for w, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])) if len(w) > 1][:words]
    entries = list(dict.fromkeys(SPECIAL + characters + [f"##{c}" for c in characters] + frequent))
    path.write_text("\n".join(entries) + "\n", encoding="utf-8")
    return path


def tokenizer_for(vocabulary: Path):
    from transformers import BertTokenizerFast

    return BertTokenizerFast(vocab_file=str(vocabulary), do_lower_case=False, strip_accents=False)


TINY = {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 64}


def bert_size(hidden: int, layers: int) -> dict[str, int]:
    """A BERT's shape of ``layers`` layers of ``hidden`` (BERT's proportions: a head per 64,
    a feed-forward 4 times as wide, 512 positions), for :func:`build_bert`'s ``size``."""
    return {
        "hidden_size": hidden,
        "num_hidden_layers": layers,
        "num_attention_heads": max(1, hidden // 64),
        "intermediate_size": 4 * hidden,
        "max_position_embeddings": 512,
    }


def build_bert(
    directory: Path,
    vocabulary: Path,
    seed: int,
    *,
    regressor: bool,
    bias: float = 0.0,
    spread: float = 0.02,
    size: dict[str, int] | None = None,
) -> Path:
    """A BERT saved in ``directory`` with its tokenizer, 2 layers of 32 unless ``size`` says
    otherwise (:func:`bert_size`): with one-output regression head (SOME's regressors,
    IMPARA's quality estimator) or plain (IMPARA's similarity encoder). ``bias`` moves the
    regressor's output, ``spread`` is the weights' std."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertModel

    tokenizer = tokenizer_for(vocabulary)
    config = BertConfig(
        vocab_size=len(tokenizer),
        **{**TINY, "max_position_embeddings": 128, **(size or {})},
        initializer_range=spread,
        num_labels=1,
    )
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config) if regressor else BertModel(config)
    if regressor:
        with torch.no_grad():
            model.classifier.bias.fill_(bias)
    model.eval()
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def build_models(
    root: Path, texts: Iterable[str], words: int = WORDS, size: dict[str, int] | None = None
) -> dict[str, str]:
    """SOME's three regressors and IMPARA's two models, as the settings name them (the
    tests' tiny ones unless ``words`` and ``size`` say otherwise: bench/lm_speed.py)."""
    vocabulary = write_vocabulary(root / "vocab.txt", texts, words)
    some = [build_bert(root / name, vocabulary, seed, regressor=True, bias=2.5, size=size) for name, seed in SOME_SEEDS]
    quality = build_bert(root / "quality", vocabulary, 14, regressor=True, spread=0.1, size=size)
    similarity = build_bert(root / "similarity", vocabulary, 15, regressor=False, spread=0.5, size=size)
    return {"GEC_SOME_MODELS": ",".join(map(str, some)), "GEC_IMPARA_MODELS": f"{quality},{similarity}"}


SOME_SEEDS = (("grammaticality", 11), ("fluency", 12), ("meaning", 13))


def dataset_of(sources: list[str]) -> Dataset:
    """A dataset of whitespace-split lines, without references (SOME and IMPARA read none)."""
    return Dataset([line.split() for line in sources], [])


def hypothesis_of(name: str, outputs: list[str]) -> Hypothesis:
    return Hypothesis(name, [line.split() for line in outputs], [[] for _ in outputs], lines=list(outputs))


@functools.cache
def gec_metrics_module(name: str) -> ModuleType:
    """gec-metrics' ``gec_metrics/metrics/<name>.py``, loaded beside its ``base.py`` only;
    a missing install skips (fails on CI) with the reason."""
    spec = importlib.util.find_spec("gec_metrics")
    if spec is None or not spec.submodule_search_locations:
        needs.missing("the package gec-metrics 0.1.1 (scripts/bootstrap installs it from requirements-nodeps.txt)")
    folder = Path(next(iter(spec.submodule_search_locations))) / "metrics"
    if REFERENCE_PACKAGE not in sys.modules:
        package = ModuleType(REFERENCE_PACKAGE)
        package.__path__ = [str(folder)]
        sys.modules[REFERENCE_PACKAGE] = package
    return importlib.import_module(f"{REFERENCE_PACKAGE}.{name}")


def build_plain_bert(directory: Path, vocabulary: Path, **config: int) -> Path:
    """A BERT encoder saved with transformers' default config otherwise (two labels, 512
    positions): the wrong kind of directory for a regressor setting."""
    import torch
    from transformers import BertConfig, BertModel

    tokenizer = tokenizer_for(vocabulary)
    sizes = {**TINY, "num_hidden_layers": 1}
    torch.manual_seed(0)
    BertModel(BertConfig(vocab_size=len(tokenizer), **{**sizes, **config})).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
