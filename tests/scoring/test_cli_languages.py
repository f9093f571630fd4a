"""The CLI contract of ``--lang``, ``--pipeline``, ``--gleu-variant``, ``--max-tokens``."""

import json
import subprocess
import sys
from pathlib import Path

from scoring.cli.main import main
from tests.scoring.language_fixtures import SENTENCES

ROOT = Path(__file__).resolve().parents[2]


def write(folder: Path, name: str, lines: list[str]) -> Path:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_multigec_command_prints_errant_and_gleu(tmp_path):
    sources, reference, system = SENTENCES["uk"]
    files = [
        write(tmp_path, "S", sources),
        write(tmp_path, "R1", reference),
        write(tmp_path, "R2", system),
        write(tmp_path, "H", system),
    ]
    command = [
        sys.executable,
        "-m",
        "scoring",
        "--lang",
        "uk",
        "--pipeline",
        "tokens",
        "--source",
        files[0],
        "--ref",
        files[1],
        "--ref",
        files[2],
        "--hyp",
        f"NAME={files[3]}",
        "--metrics",
        "errant,gleu",
        "--gleu-variant",
        "multigec",
        "--json",
    ]
    out = json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    scores = out["systems"]["NAME"]
    for mode in ("cs", "ds", "dt", "cse"):
        assert set(scores["errant"][mode]) == {"tp", "fp", "fn", "p", "r", "f"}
    assert 0.0 < scores["gleu"]["score"] <= 1.0
    assert "|lang:uk|pipeline:tokens|" in out["signature"] and "|variant:multigec" in out["signature"]


def test_an_unsupported_metric_is_reported_not_scored(tmp_path, capsys):
    sources, reference, system = SENTENCES["cs"]
    args = [
        "--lang",
        "cs",
        "--source",
        str(write(tmp_path, "S", sources)),
        "--ref",
        str(write(tmp_path, "R", reference)),
        "--hyp",
        f"sys={write(tmp_path, 'H', system)}",
        "--metrics",
        "errant,usim",
        "--json",
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert "usim" not in out["systems"]["sys"] and "dependency parse" in out["unsupported"]["usim"]


def test_an_unknown_language_is_a_usage_error(tmp_path, capsys):
    sources, reference, system = SENTENCES["cs"]
    args = [
        "--lang",
        "xx",
        "--source",
        str(write(tmp_path, "S", sources)),
        "--ref",
        str(write(tmp_path, "R", reference)),
        "--hyp",
        str(write(tmp_path, "H", system)),
    ]
    try:
        main(args)
    except SystemExit as exc:
        assert exc.code == 2
    assert "unknown language 'xx'" in capsys.readouterr().err


def test_max_tokens_counts_the_languages_tokens(tmp_path, capsys):
    """Chinese text has no spaces: the limit applies to the characters its tokenizer makes."""
    sources, reference, system = SENTENCES["zh"]
    args = [
        "--lang",
        "zh",
        "--tokenize",
        "--max-tokens",
        "6",
        "--source",
        str(write(tmp_path, "S", sources)),
        "--ref",
        str(write(tmp_path, "R", reference)),
        "--hyp",
        str(write(tmp_path, "H", system)),
        "--metrics",
        "errant",
    ]
    assert main(args) == 2
    assert (
        "source: line 1: the line has 7 tokens after zh tokenization, over the limit of 6 per line"
        in capsys.readouterr().err
    )
