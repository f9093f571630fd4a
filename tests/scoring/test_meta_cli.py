"""``python -m scoring meta``: the JSON shape, the table, and bad human input by line."""

from __future__ import annotations

import json

import pytest

from scoring.cli.main import main
from tests.support.meta_support import SMALL_SYSTEMS, small_task

JUDGMENTS = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results><error-correction-ranking-result>
<ranking-item src-id="2" user="a"><translation system="BART T5" rank="1"/><translation system="INPUT" rank="3"/>\
<translation system="PIE" rank="2"/></ranking-item>
<ranking-item src-id="5" user="b"><translation system="TransGEC" rank="1"/>\
<translation system="GECToR-BERT INPUT" rank="2"/></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    directory = tmp_path_factory.mktemp("meta-cli")
    files = small_task(directory)
    files["judgments"] = directory / "judgments_sent.xml"
    files["judgments"].write_text(JUDGMENTS, encoding="utf-8")
    return files


def arguments(files, *extra):
    args = ["meta", "--source", str(files["source"]), *[a for ref in files["refs"] for a in ("--ref", str(ref))]]
    args += [a for name, path in files["hyps"].items() for a in ("--hyp", f"{name}={path}")]
    return args + ["--metrics", "errant,gotoscorer,usim", "--human", f"TS_sent={files['human']}", *extra]


def test_json(task, capsys):
    code = main(
        arguments(
            task,
            "--judgments",
            f"sent={task['judgments']}",
            "--bootstrap",
            "50",
            "--seed",
            "3",
            "--system-set",
            "noinput=-INPUT",
            "--json",
        )
    )
    assert code == 0
    table = json.loads(capsys.readouterr().out)
    entry = table["system"]["errant.cs.f"]["TS_sent"]
    assert set(entry) >= {"pearson", "spearman", "pearson_ci", "spearman_ci"}
    assert entry["n_systems"] == len(SMALL_SYSTEMS) - 1 and table["set"] == "noinput"
    assert set(table["system"]) == {
        "errant.cs.p",
        "errant.cs.r",
        "errant.cs.f",
        "gotoscorer.f",
        "gotoscorer.accuracy",
        "usim.f",
    }
    sentence = table["sentence"]["gotoscorer.f"]["sent"]
    assert sentence["pairs"] == 3  # without INPUT: BART>PIE, T5>PIE (BART = T5, a tie), TransGEC>GECToR-BERT
    assert table["signature"].startswith("scoring:") and "samples:50|seed:3" in table["signature"]
    assert table["sets"]["noinput"]["windows"]["usim.f"]["TS_sent"][0]["from"] == 1


def test_table(task, capsys):
    assert main(arguments(task, "--bootstrap", "0")) == 0
    out = capsys.readouterr().out
    assert "== all: 6 systems ==" in out and "errant.cs.f" in out and "pearson" in out


def test_bad_human_file_exits_2_naming_the_line(task, tmp_path, capsys):
    bad = tmp_path / "EW.txt"
    bad.write_text("BART 0.1\nT5 high\n", encoding="utf-8")
    code = main(arguments(task, "--human", f"EW={bad}"))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert f"error: {bad}: line 2: 'high' is not a number" in captured.err


def test_bad_judgments_exit_2_naming_the_line(task, tmp_path, capsys):
    bad = tmp_path / "j.xml"
    bad.write_text(
        '<appraise-results>\n<ranking-item src-id="99"><translation system="T5" '
        'rank="1"/></ranking-item>\n</appraise-results>\n',
        encoding="utf-8",
    )
    assert main(arguments(task, "--judgments", str(bad))) == 2
    assert "line 2: src-id 99 is not a sentence of this dataset" in capsys.readouterr().err


@pytest.mark.parametrize("line", ["²", "٣", "1" * 5000], ids=["superscript", "arabic", "5000-digits"])
def test_a_judged_line_id_in_other_digits_is_named_not_a_traceback(line, tmp_path):
    """``'²'.isdigit()`` is true and ``int('²')`` fails: a line ids file was a traceback."""
    from scoring.errors import InputError
    from scoring.meta import read_line_ids

    path = tmp_path / "subset_line_ids.txt"
    path.write_text(f"0\n{line}\n", encoding="utf-8")
    with pytest.raises(InputError, match="is not a line number"):
        read_line_ids(path)
