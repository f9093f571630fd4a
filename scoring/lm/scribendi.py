"""The Scribendi score (Islam and Magnani, EMNLP 2021) as MultiGEC-2025 ran it.

MultiGEC-2025 ranked its fluency track with ``scribendi.py`` of robertostling/scribendi_score
(Goto's reimplementation, adapted). This module computes what that script computes, its
quirks included, so a figure here equals the one it prints on the same model directory:

* an essay scores 0 when the output equals the source (whole stripped lines compared);
  -1 when the output's perplexity is not lower than the source's; else +1 when
  max(token sort ratio, Levenshtein distance ratio) >= 0.8, otherwise -1;
* perplexity is exp of the mean token loss over the attention mask, of the tokenizer's
  BOS token prepended *as text* (a tokenizer that adds its own BOS reads two), padded
  with EOS (the tokenizer's own padding side) in groups of ``batch_size`` essays, in
  bfloat16, the loss and its mean kept in the model's dtype as the script keeps them;
  a group's padding changes the numbers in bfloat16, so the groups are the script's;
* the token sort ratio is fuzzywuzzy 0.18.0's with python-Levenshtein: its default
  processing deletes every character from U+0080 to U+00FF (Latin-1 letters: ä ö å ü é
  ð þ ...), turns every other non-word character into a space, lower-cases, sorts the
  words, and rounds 100 times the Indel ratio to an integer (Python's ``round``); equal
  processed strings score 100, one empty one 0. The ``unicode`` variant keeps U+0080-U+00FF;
* the Levenshtein distance ratio is 1 - d / (|src| + |out|) over characters, with d the
  edit distance whose substitution costs 2 (so the Indel distance).

The corpus figure MultiGEC printed is (number of +1 - number of -1) / essays; gec-metrics
reports the plain sum. Both are kept (:func:`corpus_scores`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rapidfuzz.distance import Indel

from .runtime import LoadedModel, check_context

THRESHOLD = 0.8
VARIANTS = ("multigec", "unicode")  # multigec: fuzzywuzzy's processing, Latin-1 deleted
LATIN1_DELETED = dict.fromkeys(range(0x80, 0x100))  # what fuzzywuzzy's force_ascii deletes
NON_WORD = re.compile(r"\W", re.UNICODE)


# -- the two string similarities -----------------------------------------------------------------
def sorted_words(text: str, variant: str = "multigec") -> str:
    """The text as fuzzywuzzy's token sort compares it: (``multigec``: U+0080-U+00FF deleted,)
    non-word characters as spaces, lower case, words sorted and joined by one space."""
    if variant == "multigec":
        text = text.translate(LATIN1_DELETED)
    words = NON_WORD.sub(" ", text).lower().split()
    return " ".join(sorted(words))


def token_sort_ratio(source: str, output: str, variant: str = "multigec") -> int:
    """fuzzywuzzy's ``token_sort_ratio`` (0-100): 100 for equal processed strings, 0 when
    one is empty, else 100 x the Indel ratio rounded half to even."""
    a, b = sorted_words(source, variant), sorted_words(output, variant)
    if a == b:
        return 100
    if not a or not b:
        return 0
    return int(round(100 * Indel.normalized_similarity(a, b)))


def levenshtein_ratio(source: str, output: str) -> float:
    """1 - d / (|source| + |output|), d the character edit distance with substitution cost 2,
    written as the script writes it (the same float)."""
    return 1 - Indel.distance(source, output) / (len(source) + len(output))


def similar_enough(source: str, output: str, variant: str = "multigec", threshold: float = THRESHOLD) -> bool:
    """max(token sort ratio / 100, Levenshtein distance ratio) >= ``threshold``."""
    return max(token_sort_ratio(source, output, variant) / 100, levenshtein_ratio(source, output)) >= threshold


# -- perplexity ------------------------------------------------------------------------------
def prepare_tokenizer(loaded: LoadedModel, setting_name: str) -> None:
    """Pad with EOS as the script does; a tokenizer without BOS or EOS cannot serve."""
    from .runtime import LMSettingError

    tokenizer = loaded.tokenizer
    if tokenizer.bos_token is None or tokenizer.eos_token is None:
        raise LMSettingError(setting_name, f"the tokenizer of {str(loaded.path)!r} has no BOS or no EOS token")
    tokenizer.pad_token = tokenizer.eos_token


def perplexities(
    loaded: LoadedModel, texts: Sequence[str], batch_size: int, setting_name: str, what: str = "line"
) -> list[float]:
    """The script's perplexity of every text (:func:`perplexities_of` on all of them)."""
    found = perplexities_of(loaded, texts, range(len(texts)), batch_size, setting_name, what)
    return [found[i] for i in range(len(texts))]


def token_ids(loaded: LoadedModel, texts: Sequence[str]) -> list[list[int]]:
    """Each text's token ids as the script's tokenizer call makes them (BOS prepended as text);
    none for no text (a system that changed nothing: the tokenizer itself fails on [])."""
    if not texts:
        return []
    tokenizer = loaded.tokenizer
    return tokenizer([tokenizer.bos_token + text for text in texts])["input_ids"]


def group_lengths(lengths: Sequence[int], batch_size: int) -> list[int]:
    """Each text's padded length in the script: the longest of its group of ``batch_size``
    consecutive texts."""
    padded = []
    for start in range(0, len(lengths), batch_size):
        group = lengths[start : start + batch_size]
        padded += [max(group)] * len(group)
    return padded


def reading_plan(
    lengths: Sequence[int], wanted: Iterable[int], batch_size: int, rows_per_batch: int | None = None
) -> list[tuple[int, list[int]]]:
    """``(padded length, text indices)`` of each forward pass that reads the texts ``wanted``
    as the script reads them: each padded to its script group's longest (:func:`group_lengths`),
    texts of one padded length batched together (at most ``rows_per_batch``, default
    ``batch_size``), shortest first. A text's figures depend on its ids and its padded length
    only, not on the rows beside it, so this equals the script's reading of those texts; a
    text not wanted (an output equal to its source) is never read."""
    padded = group_lengths(lengths, batch_size)
    per_batch = rows_per_batch or batch_size
    by_length: dict[int, list[int]] = {}
    for i in sorted(set(wanted)):
        by_length.setdefault(padded[i], []).append(i)
    return [
        (length, rows[start : start + per_batch])
        for length, rows in sorted(by_length.items())
        for start in range(0, len(rows), per_batch)
    ]


def padded_batch(loaded: LoadedModel, ids: Sequence[Sequence[int]], length: int) -> tuple[Any, Any]:
    """Input ids and attention mask of ``ids`` padded with EOS to ``length`` on the tokenizer's
    padding side: the tensors the script's ``tokenizer(..., padding=True)`` makes for them in a
    group whose longest text has ``length`` tokens."""
    import torch

    pad = loaded.tokenizer.pad_token_id
    left = loaded.tokenizer.padding_side == "left"
    rows, masks = [], []
    for row in ids:
        fill = length - len(row)
        rows.append([pad] * fill + list(row) if left else list(row) + [pad] * fill)
        masks.append([0] * fill + [1] * len(row) if left else [1] * len(row) + [0] * fill)
    return torch.tensor(rows, dtype=torch.long), torch.tensor(masks, dtype=torch.long)


def perplexities_of(
    loaded: LoadedModel,
    texts: Sequence[str],
    wanted: Iterable[int],
    batch_size: int,
    setting_name: str,
    what: str = "line",
    progress: Callable[[int], None] | None = None,
) -> dict[int, float]:
    """The script's perplexity of ``texts[i]`` for each ``i`` in ``wanted``, read by
    :func:`reading_plan`. A text read, or the longest of its group, past the model's context
    is an :class:`InputError` naming its line. ``progress(tokens)`` after each forward pass."""
    import torch

    wanted = sorted(set(wanted))
    if not wanted:
        return {}
    ids = token_ids(loaded, texts)
    lengths = [len(row) for row in ids]
    touched = {start for i in wanted for start in [i - i % batch_size]}
    for start in sorted(touched):
        check_context(lengths[start : start + batch_size], loaded.max_length, setting_name, what, start + 1)
    found: dict[int, float] = {}
    for length, rows in reading_plan(lengths, wanted, batch_size):
        input_ids, mask = padded_batch(loaded, [ids[i] for i in rows], length)
        input_ids, mask = input_ids.to(loaded.device), mask.to(loaded.device)
        with torch.inference_mode():
            logits = loaded.model(input_ids, attention_mask=mask).logits
            found.update(zip(rows, _mean_loss_perplexity(logits, input_ids, mask)))
        if progress is not None:
            progress(sum(lengths[i] for i in rows))
    return found


def _mean_loss_perplexity(logits, ids, mask) -> list[float]:
    """exp(mean next-token loss over the mask), each step in the logits' dtype."""
    import torch

    shifted_logits = logits[:, :-1, :].contiguous()
    labels = ids[:, 1:].contiguous()
    shifted_mask = mask[:, 1:].contiguous()
    rows, steps = labels.shape
    losses = torch.nn.functional.cross_entropy(
        shifted_logits.view(-1, shifted_logits.size(-1)), labels.view(-1), reduction="none"
    ).view(rows, steps)
    mean = (losses * shifted_mask).sum(dim=1) / shifted_mask.sum(dim=1)
    return torch.exp(mean).tolist()


# -- decisions and the corpus figure ----------------------------------------------------------------
def decisions(
    sources: Sequence[str],
    outputs: Sequence[str],
    source_ppl: Sequence[float],
    output_ppl: Sequence[float],
    variant: str = "multigec",
    threshold: float = THRESHOLD,
) -> list[int]:
    """Each essay's -1, 0 or +1 (module docstring)."""
    found = []
    for src, out, p_src, p_out in zip(sources, outputs, source_ppl, output_ppl):
        if src == out:
            found.append(0)
        elif p_src <= p_out:
            found.append(-1)
        else:
            found.append(1 if similar_enough(src, out, variant, threshold) else -1)
    return found


def corpus_scores(essay_decisions: Sequence[int]) -> dict:
    """``score``: MultiGEC's (plus - minus) / essays; ``sum``: gec-metrics' plain sum; the counts."""
    plus = sum(1 for d in essay_decisions if d > 0)
    minus = sum(1 for d in essay_decisions if d < 0)
    n = len(essay_decisions)
    return {
        "score": (plus - minus) / n if n else 0.0,
        "sum": plus - minus,
        "plus": plus,
        "minus": minus,
        "unchanged": n - plus - minus,
    }
