"""Tiny language models the LM metrics' tests build offline: random weights from a fixed
seed, a byte-level BPE tokenizer trained with ``tokenizers``, saved with ``save_pretrained``.

Real models are the organizer's; these only have the real ones' shape (a Llama-style causal
LM whose tokenizer adds its own BOS, as Llama 3's does), so a parity test compares the
code paths on every text without downloading anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

BOS, EOS = "<s>", "</s>"


def train_tokenizer(texts: Iterable[str], vocab_size: int = 2000):
    """A byte-level BPE (every string encodes, no unknown token) that adds BOS in front."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[BOS, EOS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer)
    bos = tokenizer.token_to_id(BOS)
    tokenizer.post_processor = processors.TemplateProcessing(single=f"{BOS} $A", special_tokens=[(BOS, bos)])
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token=BOS, eos_token=EOS, padding_side="right")


def build_causal_lm(directory: Path, texts: Iterable[str], seed: int = 0, context: int = 16384) -> Path:
    """A 2-layer Llama with random weights (``seed``) and its tokenizer, saved in ``directory``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = train_tokenizer(texts)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=context,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    model = LlamaForCausalLM(config)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def build_masked_lm(directory: Path, texts: Iterable[str], seed: int = 0) -> Path:
    """A tiny BERT masked LM (not a causal LM), for the error a wrong directory gives."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    tokenizer = train_tokenizer(texts, vocab_size=400)
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64
    )
    BertForMaskedLM(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
