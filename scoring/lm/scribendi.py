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
from collections.abc import Sequence

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
    """The script's perplexity of every text, in groups of ``batch_size`` consecutive texts
    padded together. A text past the model's context is an :class:`InputError` naming its line."""
    import torch

    tokenizer, model = loaded.tokenizer, loaded.model
    found: list[float] = []
    for start in range(0, len(texts), batch_size):
        batch = [tokenizer.bos_token + text for text in texts[start : start + batch_size]]
        inputs = tokenizer(batch, return_tensors="pt", padding=True)
        lengths = inputs["attention_mask"].sum(dim=1).tolist()
        check_context(lengths, loaded.max_length, setting_name, what, first_line=start + 1)
        ids = inputs["input_ids"].to(loaded.device)
        mask = inputs["attention_mask"].to(loaded.device)
        with torch.no_grad():
            logits = model(ids, attention_mask=mask).logits
        found += _mean_loss_perplexity(logits, ids, mask)
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
