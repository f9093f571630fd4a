"""Every bad-input case of docs/contracts.md section 1: a clear message naming the line, exit 2,
nothing printed on stdout (no half-written result)."""

import subprocess
import sys

import pytest

from scoring.cli.main import main
from tests.conftest import ROOT

SOURCE = "This are a test .\nHe go home .\nShe like cats .\n"
REF = "This is a test .\nHe goes home .\nShe likes cats .\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "src.txt").write_text(SOURCE)
    (tmp_path / "ref.txt").write_text(REF)
    return tmp_path


def run(files, hyp_bytes: bytes, capsys, name="hyp.txt", extra=()):
    hyp = files / name
    hyp.write_bytes(hyp_bytes)
    code = main(
        [
            "--source",
            str(files / "src.txt"),
            "--ref",
            str(files / "ref.txt"),
            "--hyp",
            f"sys={hyp}",
            "--metrics",
            "errant",
            *extra,
        ]
    )
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_rejected(result, *fragments):
    code, out, err = result
    assert code == 2
    assert out == ""
    for fragment in fragments:
        assert fragment in err, err


def test_too_many_lines(files, capsys):
    assert_rejected(run(files, (REF + "Extra line .\n").encode(), capsys), "line 4:", "extra line", "3 lines")


def test_too_few_lines(files, capsys):
    assert_rejected(run(files, b"This is a test .\nHe goes home .\n", capsys), "line 2:", "the source has 3 lines")


def test_invalid_utf8(files, capsys):
    assert_rejected(
        run(files, b"This is a test .\nHe goes \xff home .\nShe likes cats .\n", capsys), "line 2:", "invalid UTF-8"
    )


def test_nul_character(files, capsys):
    assert_rejected(run(files, b"This is a test .\nHe goes home .\nShe likes\x00 cats .\n", capsys), "line 3:", "NUL")


def test_other_control_character(files, capsys):
    assert_rejected(
        run(files, b"This is a \x07test .\nHe goes home .\nShe likes cats .\n", capsys), "line 1:", "U+0007"
    )


def test_line_over_token_limit(files, capsys):
    long_line = " ".join(["word"] * 30)
    result = run(
        files, f"This is a test .\n{long_line}\nShe likes cats .\n".encode(), capsys, extra=["--max-tokens", "20"]
    )
    assert_rejected(result, "line 2:", "30 tokens", "limit of 20")


def test_empty_file(files, capsys):
    assert_rejected(run(files, b"", capsys), "empty")


def test_every_problem_is_listed(files, capsys):
    code, out, err = run(files, b"\x01a\n\x02b\n\x03c\n", capsys)
    assert code == 2 and out == ""
    assert all(f"line {n}:" in err for n in (1, 2, 3))


def test_bom_crlf_and_missing_final_newline_are_accepted(files, capsys):
    code, out, err = run(files, b"\xef\xbb\xbf" + REF.replace("\n", "\r\n").rstrip("\r\n").encode(), capsys)
    assert code == 0, err
    assert "1.0000" in out  # the references themselves: P = R = F = 1


def test_malformed_m2_hypothesis(files, capsys):
    m2 = (
        b"S This are a test .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-\n\nS He go home .\nA 9 "
        b"10|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n\nS She like cats .\n"
    )
    assert_rejected(run(files, m2, capsys, name="hyp.m2"), "line 2:", "6 fields", "line 5:", "outside the sentence")


def test_m2_hypothesis_with_another_source(files, capsys):
    m2 = b"S This are a test .\n\nS He went home .\n\nS She like cats .\n"
    assert_rejected(run(files, m2, capsys, name="hyp.m2"), "line 3:", "differs from the task's source")


def test_missing_file(files, capsys):
    code = main(
        ["--source", str(files / "src.txt"), "--ref", str(files / "ref.txt"), "--hyp", f"sys={files / 'nope.txt'}"]
    )
    assert code == 2
    assert "nope.txt" in capsys.readouterr().err


def test_exit_status_of_the_real_command(files):
    (files / "hyp.txt").write_text("only one line\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "--source",
            str(files / "src.txt"),
            "--ref",
            str(files / "ref.txt"),
            "--hyp",
            f"sys={files / 'hyp.txt'}",
            "--metrics",
            "errant",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "line 1:" in proc.stderr and "the source has 3 lines" in proc.stderr
