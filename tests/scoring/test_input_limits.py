"""Token and character limits per line and per file, on every input path:
text and M2 outputs, sources and references, the library and the CLI."""

import subprocess
import sys

import pytest

from scoring import Dataset, InputError, Limits, read_hypothesis, read_m2, read_text
from scoring.cli.main import main
from scoring.limits import DEFAULT_LIMITS
from tests.conftest import ROOT

SOURCE = "This are a test .\nHe go home .\nShe like cats .\n"
REF = "This is a test .\nHe goes home .\nShe likes cats .\n"
SMALL = Limits(line_tokens=20, line_chars=200, file_tokens=50, file_chars=1000)


def problems(call) -> list[str]:
    with pytest.raises(InputError) as caught:
        call()
    return [str(p) for p in caught.value.problems]


def test_text_line_over_tokens_and_characters():
    text = f"ok .\n{' '.join(['w'] * 21)}\n{'x' * 201}\n".encode()
    found = problems(lambda: read_text(text, limits=SMALL))
    assert found == [
        "line 2: the line has 21 tokens, over the limit of 20 per line",
        "line 3: the line has 201 characters, over the limit of 200 per line",
    ]


def test_text_file_over_tokens_names_the_line_that_crosses():
    text = "\n".join(" ".join(["w"] * 10) for _ in range(8)).encode()
    assert problems(lambda: read_text(text, limits=SMALL)) == [
        "line 6: the file reaches 60 tokens here, over the limit of 50 per file"
    ]


def test_text_file_over_characters():
    text = "\n".join("y" * 150 for _ in range(8)).encode()
    assert problems(lambda: read_text(text, limits=SMALL)) == [
        "line 7: the file reaches 1050 characters here, over the limit of 1000 per file"
    ]


def test_m2_correction_memory_bomb_is_refused():
    """The issue's 0.2 MB file: one ``A`` line inserting 100,000 tokens."""
    bomb = f"S a b\nA 0 1|||R:X|||{' '.join(['w'] * 100_000)}|||REQUIRED|||-NONE-|||0\n".encode()
    assert problems(lambda: read_m2(bomb)) == [
        f"line 2: the correction has 100000 tokens, over the limit of {DEFAULT_LIMITS.line_tokens} per line",
        "line 2: the line has 200037 characters, over the limit of 50000 per line",
    ]


def test_m2_annotator_sentence_over_the_line_limit():
    """Corrections each within the limit that together make too long a sentence."""
    edit = "A 0 0|||M:X|||" + " ".join(["w"] * 10) + "|||REQUIRED|||-NONE-|||{}"
    m2 = "\n".join(["S a b", edit.format(0), edit.format(0), edit.format(1), "", "S c"]).encode()
    assert problems(lambda: read_m2(m2, limits=SMALL)) == [
        "line 1: annotator 0's corrections could make a sentence of 22 tokens, over the limit of 20 per line"
    ]


def test_m2_source_line_over_the_limit():
    m2 = f"S {' '.join(['w'] * 21)}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n".encode()
    assert problems(lambda: read_m2(m2, limits=SMALL)) == [
        "line 1: the line has 21 tokens, over the limit of 20 per line"
    ]


def test_m2_hypothesis_honours_the_limits(tmp_path):
    dataset = Dataset.from_m2(read_m2(b"S This are a test .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"))
    bomb = b"S This are a test .\nA 1 2|||R:VERB|||" + b" is" * 30 + b"|||REQUIRED|||-NONE-|||0\n"
    found = problems(lambda: read_hypothesis(dataset, bomb, "sys", filename="sys.m2", limits=SMALL))
    assert found == ["sys.m2: line 2: the correction has 30 tokens, over the limit of 20 per line"]


def test_references_honour_the_limits(tmp_path):
    (tmp_path / "src.txt").write_text(SOURCE)
    (tmp_path / "ref.txt").write_text(REF.replace("He goes home .", " ".join(["goes"] * 21)))
    found = problems(lambda: Dataset.from_files(source=tmp_path / "src.txt", refs=[tmp_path / "ref.txt"], limits=SMALL))
    assert found == [f"{tmp_path / 'ref.txt'}: line 2: the line has 21 tokens, over the limit of 20 per line"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "src.txt").write_text(SOURCE)
    (tmp_path / "ref.txt").write_text(REF)
    return tmp_path


def test_cli_refuses_the_memory_bomb_by_line(files):
    """Exit 2 and the line, not "Unable to allocate 9.32 GiB" and a traceback."""
    bomb = (
        f"S This are a test .\nA 1 2|||R:VERB|||{' '.join(['is'] * 100_000)}|||REQUIRED|||-NONE-|||0\n\nS He go "
        "home .\n\nS She like cats .\n"
    )
    (files / "bomb.m2").write_text(bomb)
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
            f"bomb={files / 'bomb.m2'}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert (
        f"line 2: the correction has 100000 tokens, over the limit of {DEFAULT_LIMITS.line_tokens} per line"
        in proc.stderr
    )


def test_cli_limit_options(files, capsys):
    (files / "hyp.txt").write_text("x" * 60 + "\nHe goes home .\nShe likes cats .\n")
    code = main(
        [
            "--source",
            str(files / "src.txt"),
            "--ref",
            str(files / "ref.txt"),
            "--hyp",
            f"sys={files / 'hyp.txt'}",
            "--metrics",
            "errant",
            "--max-chars",
            "50",
        ]
    )
    assert code == 2
    assert "line 1: the line has 60 characters, over the limit of 50 per line" in capsys.readouterr().err


def test_cli_duplicate_system_name_is_an_error(files, capsys):
    (files / "a.txt").write_text(REF)
    (files / "b.txt").write_text(SOURCE)
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "--source",
                str(files / "src.txt"),
                "--ref",
                str(files / "ref.txt"),
                "--hyp",
                f"A={files / 'a.txt'}",
                "--hyp",
                f"A={files / 'b.txt'}",
            ]
        )
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "the system name 'A' is given twice" in err


def test_cli_duplicate_stems_are_an_error_too(files, capsys):
    (files / "sub").mkdir()
    (files / "sys.txt").write_text(REF)
    (files / "sub" / "sys.txt").write_text(REF)
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "--source",
                str(files / "src.txt"),
                "--ref",
                str(files / "ref.txt"),
                "--hyp",
                str(files / "sys.txt"),
                "--hyp",
                str(files / "sub" / "sys.txt"),
            ]
        )
    assert exited.value.code == 2
    assert "'sys' is given twice" in capsys.readouterr().err
