"""MultiGEC-2025's scoring chain as the oracle, and UA-GEC lines to run it on.

The chain: ERRANT 3.0.2's ``errant_parallel`` on a blank spaCy pipeline
(tokens as given, no tagger: every tag empty, which the classifier reads as ``X``),
``errant_compare`` on the M2 files, and the PyPI ``gleu`` 1.1.0 tool run as ``gleu -d 4
-f -n 4 -t word``. Here each step is stock code called in-process, so a test compares
the library with the very functions MultiGEC ran.

UA-GEC (CC BY 4.0, the ``ua-gec`` package): an essay's annotated text gives its source,
its corrected text (the reference) and, by applying only some of its corrections, the
simulated system outputs. Lines are tokenized by spaCy's blank Ukrainian tokenizer
(MultiGEC used syntok; the scoring does not depend on which).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

MODES = ("cs", "ds", "dt", "cse")


# -- the stock chain ------------------------------------------------------------------------
@contextlib.contextmanager
def empty_tag_is_x():
    """errant's classifier maps a token's tag through ``pos_map``; a blank pipeline's tag is
    empty, which MultiGEC's fork read as ``X``."""
    from errant.en import classifier

    classifier.pos_map[""] = "X"
    try:
        yield
    finally:
        del classifier.pos_map[""]


@functools.cache
def stock_annotator(lang: str):
    import errant
    import spacy

    return errant.load("en", nlp=spacy.blank(lang))


def stock_m2(lang: str, source: Sequence[str], corrections: Sequence[Sequence[str]]) -> str:
    """``errant_parallel -orig SOURCE -cor C1 C2 ...`` (errant/commands/parallel_to_m2.py) on a
    blank pipeline: one M2 block per line, one coder per correction file."""
    annotator = stock_annotator(lang)
    blocks = []
    with empty_tag_is_x():
        for i, line in enumerate(source):
            orig = annotator.parse(line.strip())
            block = [" ".join(["S"] + [t.text for t in orig])]
            for coder, lines in enumerate(corrections):
                cor = lines[i].strip()
                if orig.text.strip() == cor:
                    block.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}")
                    continue
                for edit in annotator.annotate(orig, annotator.parse(cor)):
                    block.append(edit.to_m2(coder))
            blocks.append("\n".join(block))
    return "\n\n".join(blocks) + "\n\n"


def stock_compare(hyp_m2: str, ref_m2: str, mode: str) -> tuple[int, int, int]:
    """``errant_compare -hyp H -ref R [-ds|-dt|-cse]``'s TP, FP, FN (errant/commands/compare_m2.py)."""
    from errant.commands import compare_m2 as compare

    args = argparse.Namespace(
        beta=0.5,
        verbose=False,
        dt=mode == "dt",
        ds=mode == "ds",
        cs=mode == "cs",
        cse=mode == "cse",
        single=False,
        multi=False,
        filt=[],
        cat=None,
    )
    best = Counter({"tp": 0, "fp": 0, "fn": 0})
    hyp_blocks, ref_blocks = hyp_m2.strip().split("\n\n"), ref_m2.strip().split("\n\n")
    assert len(hyp_blocks) == len(ref_blocks)
    for sent_id, (hyp, ref) in enumerate(zip(hyp_blocks, ref_blocks)):
        hyp_dict = compare.process_edits(compare.simplify_edits(hyp), args)
        ref_dict = compare.process_edits(compare.simplify_edits(ref), args)
        counts, _ = compare.evaluate_edits(hyp_dict, ref_dict, best, sent_id, hyp[2:].split("\nA")[0], args)
        best += Counter(counts)
    return best["tp"], best["fp"], best["fn"]


def gleu_tool(source: Sequence[str], references: Sequence[Sequence[str]], hypothesis: Sequence[str]) -> str:
    """What ``gleu -s SRC -r REF... -o HYP -d 4 -f -n 4 -t word`` prints as the score
    (a percentage with 4 decimals), from the tool's own functions."""
    from gleu.corpus_main import corpus_main
    from gleu.count import set_tokenization

    with tempfile.TemporaryDirectory() as folder:

        def write(name: str, lines: Sequence[str]) -> str:
            path = Path(folder) / name
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            return str(path)

        args = argparse.Namespace(
            source_path=write("src", source),
            ref_path_list=[write(f"ref{k}", r) for k, r in enumerate(references)],
            hyp_path_list=[write("hyp", hypothesis)],
            n=4,
            iter=500,
            digit=4,
            proc=1,
            token="word",
            max=False,
            fix_seed=True,
            verbose=False,
        )
        set_tokenization(args.token)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            corpus_main(args)
    return out.getvalue().strip().split("\t")[-1]


# -- UA-GEC lines ---------------------------------------------------------------------------
def tokenized(text: str) -> str:
    """One line of blank-Ukrainian tokens joined by spaces (newlines inside are spaces too)."""
    from scoring.pipelines import get_pipeline  # here: the stock chain runs without the library

    return " ".join(get_pipeline("uk", "tokens").tokenize([" ".join(text.split())])[0])


def partial(annotated, keep: Callable[[int], bool]) -> str:
    """The text with only the corrections whose index ``keep`` accepts applied."""
    from ua_gec import AnnotatedText

    copy = AnnotatedText(annotated.get_annotated_text())
    for k, annotation in enumerate(copy.get_annotations()):
        if not keep(k):
            copy.remove(annotation)
    return copy.get_corrected_text()


SYSTEMS: dict[str, Callable[[int], bool]] = {
    "odd": lambda k: k % 2 == 1,
    "third": lambda k: k % 3 == 0,
    "most": lambda k: k % 5 != 4,
}


@functools.cache
def ua_gec_lines(
    partition: str, limit: int, unit: str = "essay"
) -> tuple[list[str], list[list[str]], dict[str, list[str]]]:
    """(sources, references, systems) of the first ``limit`` essays (or paragraphs) of a
    UA-GEC partition, gec-only layer. References: each annotator's full correction; where
    an essay has one annotator, the second reference applies its even-numbered corrections
    only. Systems: :data:`SYSTEMS`'s subsets of the first annotator's corrections."""
    from ua_gec import Corpus

    by_essay: dict[str, list] = {}
    for document in Corpus(partition=partition, annotation_layer="gec-only"):
        by_essay.setdefault(document.meta.doc_id, []).append(document.annotated)
    sources: list[str] = []
    references: list[list[str]] = [[], []]
    systems: dict[str, list[str]] = {name: [] for name in SYSTEMS}
    for essay in sorted(by_essay):
        annotated = by_essay[essay]
        texts = [annotated[0].get_original_text(), *(a.get_corrected_text() for a in annotated[:2])]
        if len(annotated) == 1:
            texts.append(partial(annotated[0], lambda k: k % 2 == 0))
        texts += [partial(annotated[0], keep) for keep in SYSTEMS.values()]
        parts = [text.split("\n") for text in texts] if unit == "paragraph" else [[text] for text in texts]
        if len({len(p) for p in parts}) != 1:
            continue  # a correction joined or split paragraphs
        for row in zip(*parts):
            lines = [tokenized(text) for text in row]
            if not lines[0]:
                continue
            sources.append(lines[0])
            references[0].append(lines[1])
            references[1].append(lines[2])
            for name, line in zip(SYSTEMS, lines[3:]):
                systems[name].append(line)
            if len(sources) == limit:
                return sources, references, systems
    return sources, references, systems
