"""Rebuild the multilingual demo's corpora and its simulated systems.

Maintainer tool, not used at run time: the platform loads the files this writes. Two steps:

``corpora``  extracts the three open corpora (tokenised with spaCy's blank pipeline of the
             language, tokens joined by single spaces, one essay, paragraph or sentence a
             line) from UA-GEC (the ``ua_gec`` package), a GECCC checkout and an IceEC
             checkout;
``systems``  derives the simulated systems from the shipped sources and first references
             alone, so anyone can regenerate them from this folder.

    python make_demo_data.py corpora --geccc PATH --iceec PATH
    python make_demo_data.py systems
"""

from __future__ import annotations

import argparse
import csv
import difflib
import hashlib
import json
import random
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEI = "{http://www.tei-c.org/ns/1.0}"

# name -> (share of the reference's changes applied, spurious edits per 100 tokens); the
# do-nothing baseline ("copy") is each corpus's source.txt itself, so it has no file here
SYSTEMS = {"cautious": (0.35, 0.0), "balanced": (0.65, 0.5), "eager": (0.9, 2.0)}


def tokenizer(lang: str):
    import spacy

    nlp = spacy.blank(lang)
    return lambda text: " ".join(t.text for t in nlp.make_doc(" ".join(text.split())) if not t.is_space)


def write_corpus(name: str, meta: dict, source: list[str], references: list[list[str]]) -> None:
    folder = HERE / name
    folder.mkdir(exist_ok=True)
    (folder / "source.txt").write_text("".join(line + "\n" for line in source), encoding="utf-8")
    for i, ref in enumerate(references, 1):
        assert len(ref) == len(source)
        (folder / f"ref{i}.txt").write_text("".join(line + "\n" for line in ref), encoding="utf-8")
    (folder / "corpus.json").write_text(
        json.dumps(
            {"name": name, **meta, "lines": len(source), "references": len(references)}, ensure_ascii=False, indent=2
        )
        + "\n",
        encoding="utf-8",
    )


def ua_gec() -> None:
    """UA-GEC 2.1.3 train essays annotated twice (gec-only layer): one essay a line."""
    from ua_gec import Corpus

    by_doc: dict[str, list] = {}
    for doc in Corpus(partition="train", annotation_layer="gec-only"):
        by_doc.setdefault(doc.doc_id, []).append(doc)
    docs = [sorted(v, key=lambda d: d.meta.annotator_id) for k, v in sorted(by_doc.items()) if len(v) == 2]
    source = [" ".join(" ".join(s.split()) for s in pair[0].source_sentences_tokenized) for pair in docs]
    refs = [
        [" ".join(" ".join(s.split()) for s in pair[i].target_sentences_tokenized) for pair in docs] for i in (0, 1)
    ]
    write_corpus(
        "uk-ua-gec",
        {
            "language": "uk",
            "title": "UA-GEC (Ukrainian essays)",
            "licence": "CC BY 4.0",
            "origin": "UA-GEC 2.1.3 train, gec-only layer, the essays with two annotators",
        },
        source,
        refs,
    )


def geccc(root: Path, limit: int = 150) -> None:
    """GECCC dev paragraphs from the Natives Web Informal domain that have two corrections."""
    domains = {
        row["Filename"]: row["Domain"]
        for row in csv.DictReader(git_show(root, "data/meta.tsv").splitlines(), delimiter="\t")
    }
    inputs = git_show(root, "data/dev/paragraph.input").splitlines()
    golds = git_show(root, "data/dev/paragraph.gold").splitlines()
    metas = git_show(root, "data/dev/paragraph.meta").splitlines()
    tok = tokenizer("cs")
    source, ref1, ref2 = [], [], []
    for text, gold, meta in zip(inputs, golds, metas):
        corrections = gold.split("\t")
        if domains.get(meta) != "Natives Web Informal" or len(corrections) != 2:
            continue
        clean = [t.replace("\u0fc4", " ") for t in (text, *corrections)]
        if not clean[0].strip():
            continue
        source.append(tok(clean[0]))
        ref1.append(tok(clean[1]))
        ref2.append(tok(clean[2]))
        if len(source) == limit:
            break
    write_corpus(
        "cs-geccc",
        {
            "language": "cs",
            "title": "GECCC (Czech, Natives Web Informal)",
            "licence": "CC BY-SA 4.0",
            "origin": "GECCC dev paragraphs, domain Natives Web Informal, those with two corrections",
        },
        source,
        [ref1, ref2],
    )


def iceec(root: Path, limit: int = 250) -> None:
    """IceEC 1.1 test corpus sentences (essays, then Wikipedia), original and corrected tokens."""
    files = [p for p in git_ls(root, "testCorpus/essays") + git_ls(root, "testCorpus/wikipedia") if p.endswith(".xml")]
    source, ref = [], []
    for path in files:
        for sentence in ET.fromstring(git_show(root, path)).iter(TEI + "s"):
            original, corrected = tokens_of(sentence, "original"), tokens_of(sentence, "corrected")
            if original:
                source.append(" ".join(original))
                ref.append(" ".join(corrected))
            if len(source) == limit:
                break
        if len(source) == limit:
            break
    write_corpus(
        "is-iceec",
        {
            "language": "is",
            "title": "IceEC (Icelandic essays and Wikipedia)",
            "licence": "CC BY 4.0",
            "origin": "IceEC 1.1 testCorpus, essays then wikipedia, sentences in file order",
        },
        source,
        [ref],
    )


def tokens_of(node, side: str) -> list[str]:
    """The sentence's tokens on one side of every revision (``original`` or ``corrected``)."""
    out: list[str] = []
    for child in node:
        tag = child.tag.removeprefix(TEI)
        if tag in ("w", "c"):
            out.extend((child.text or "").split())
        elif tag == "revision":
            part = child.find(TEI + side)
            if part is not None:
                out.extend(tokens_of(part, side))
        elif tag not in ("errors", "error"):
            out.extend(tokens_of(child, side))
    return out


def git_show(root: Path, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(root), "show", f"HEAD:{path}"], check=True, capture_output=True, text=True
    ).stdout


def git_ls(root: Path, folder: str) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(root), "ls-tree", "--name-only", f"HEAD:{folder}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [f"{folder}/{name}" for name in sorted(out.split())]


def simulate(source: str, reference: str, share: float, noise: float, rng: random.Random) -> str:
    """Apply each of the reference's changes (difflib opcodes over tokens) with probability
    ``share``, then make about ``noise`` spurious edits per 100 tokens (a case flip, a
    dropped comma or a doubled word): a system that fixes some errors and makes its own."""
    src, ref = source.split(), reference.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, src, ref, autojunk=False).get_opcodes():
        out.extend(ref[j1:j2] if op != "equal" and rng.random() < share else src[i1:i2])
    for _ in range(sum(rng.random() < noise / 100 for _ in out)):
        k = rng.randrange(len(out))
        kind = rng.choice(("case", "comma", "double"))
        if kind == "case" and out[k].isalpha():
            out[k] = out[k].swapcase() if not out[k].istitle() else out[k].lower()
        elif kind == "comma" and out[k] == "," and len(out) > 1:
            del out[k]
        elif kind == "double" and out[k].isalpha():
            out.insert(k, out[k])
    return " ".join(out) if out else source


def systems() -> None:
    for folder in sorted(p for p in HERE.iterdir() if (p / "corpus.json").exists()):
        source = (folder / "source.txt").read_text(encoding="utf-8").splitlines()
        reference = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
        (folder / "systems").mkdir(exist_ok=True)
        for name, (share, noise) in SYSTEMS.items():
            seed = int(hashlib.sha256(f"{folder.name}/{name}".encode()).hexdigest()[:16], 16)
            rng = random.Random(seed)
            lines = [simulate(s, r, share, noise, rng) for s, r in zip(source, reference)]
            (folder / "systems" / f"{name}.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    corpora = sub.add_parser("corpora")
    corpora.add_argument("--geccc", type=Path, required=True, help="a bare git clone of ufal/GECCC")
    corpora.add_argument("--iceec", type=Path, required=True, help="a bare git clone of antonkarl/iceErrorCorpus")
    sub.add_parser("systems")
    args = parser.parse_args()
    if args.step == "corpora":
        ua_gec()
        geccc(args.geccc)
        iceec(args.iceec)
    else:
        systems()


if __name__ == "__main__":
    main()
