"""Every bad gold file is refused in the request with its problems by file and line; nothing is kept."""

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

import scoring
from leaderboard.models import Dataset, SharedTask
from leaderboard.services.data.gold import MAX_BUNDLE_MEMBERS, check_gold, unpack_bundle

SOURCE = b"This are a sentence .\nHe go home .\nShe like cats .\n"
REF = b"This is a sentence .\nHe goes home .\nShe likes cats .\n"
M2 = (
    b"S This are a sentence .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n\nS He go home .\nA 1 "
    b"2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
)


def problems(**files) -> list[str]:
    with pytest.raises(scoring.InputError) as raised:
        check_gold(**files)
    return [str(p) for p in raised.value.problems]


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_good_gold_is_accepted_as_text_m2_and_zip():
    assert check_gold(source=("source.txt", SOURCE), references=[("ref0.txt", REF)]).n_sentences == 3
    gold = check_gold(m2=("gold.m2", M2))
    assert (gold.n_sentences, gold.n_references, gold.source) == (2, 1, "This are a sentence .\nHe go home .\n")
    bundle = unpack_bundle(
        "gold.zip",
        zipped({"task/source.txt": SOURCE, "task/ref0.txt": REF, "task/ref1.txt": REF, "__MACOSX/._x": b"junk"}),
    )
    assert [name for name, _ in bundle["references"]] == ["ref0.txt", "ref1.txt"]


def test_a_reference_with_the_wrong_line_count_names_its_file_and_line():
    assert problems(
        source=("source.txt", SOURCE), references=[("ref0.txt", REF), ("ref1.txt", REF + b"One more .\n")]
    ) == ["ref1.txt: line 4: extra line: the source has 3 lines, this file 4"]
    assert problems(source=("source.txt", SOURCE), references=[("ref0.txt", b"Only one .\n")]) == [
        "ref0.txt: line 1: the file ends here: the source has 3 lines, this file 1"
    ]


def test_bad_m2_lines_are_named():
    listed = problems(m2=("gold.m2", b"S He go home .\nA 1 two|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\nX stray\n"))
    assert listed and all(p.startswith("gold.m2: line ") for p in listed)
    assert problems(m2=("gold.m2", b"A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0\n"))[0].startswith(
        "gold.m2: line 1:"
    )


def test_empty_and_binary_files():
    assert problems(source=("source.txt", b""), references=[("ref0.txt", REF)]) == ["source.txt: the file is empty"]
    binary = problems(
        source=("source.txt", SOURCE), references=[("ref0.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\n")]
    )
    assert binary[0].startswith("ref0.txt: line 1: invalid UTF-8")
    assert problems(source=("source.txt", b"ok .\nNUL \x00 here\nok .\n"), references=[("ref0.txt", REF)]) == [
        "source.txt: line 2: NUL at column 5"
    ]
    assert problems(source=("source.txt", SOURCE)) == [
        "give a source file and at least one reference file (or one M2 file)"
    ]


@pytest.mark.parametrize(
    "members, message",
    [
        ({"../source.txt": SOURCE, "ref.txt": REF}, "must be relative"),
        ({"/etc/source.txt": SOURCE, "ref.txt": REF}, "must be relative"),
        ({f"ref{k}.txt": REF for k in range(MAX_BUNDLE_MEMBERS + 1)}, "at most 20"),
        ({"ref0.txt": REF, "ref1.txt": REF}, "name exactly one file source.txt"),
        ({"gold.m2": M2, "source.txt": SOURCE}, "an M2 bundle holds one file"),
        ({"a/source.txt": SOURCE, "b/source.txt": SOURCE}, "two files named source.txt"),
        ({"source.txt": SOURCE, "refs.zip": b"PK"}, "found refs.zip"),
    ],
)
def test_bad_bundles(members, message):
    with pytest.raises(scoring.InputError) as raised:
        unpack_bundle("gold.zip", zipped(members))
    assert message in str(raised.value) and str(raised.value).startswith("gold.zip: ")


def test_a_bundle_over_the_size_limit_and_a_file_that_is_not_a_zip(settings):
    settings.GEC_MAX_GOLD_MB = 0.001
    with pytest.raises(scoring.InputError, match="unpacks to more than"):
        unpack_bundle("gold.zip", zipped({"source.txt": SOURCE * 100, "ref.txt": REF}))
    with pytest.raises(scoring.InputError, match="not a readable zip file"):
        unpack_bundle("gold.zip", b"PK\x03\x04 not really")


@pytest.mark.django_db
def test_the_page_lists_every_problem_and_keeps_nothing(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    response = client.post(
        "/host/",
        {
            "title": "Bad",
            "slug": "bad",
            "metrics": ["errant"],
            "source": SimpleUploadedFile("source.txt", SOURCE),
            "references": [SimpleUploadedFile("ref0.txt", REF + b"extra .\n")],
        },
    )
    html = response.content.decode()
    assert response.status_code == 400 and 'id="problems"' in html
    assert "ref0.txt: line 4: extra line: the source has 3 lines, this file 4" in html
    bundle = client.post(
        "/host/",
        {"title": "Bad", "slug": "bad", "metrics": ["errant"], "bundle": SimpleUploadedFile("gold.zip", b"not a zip")},
    )
    assert bundle.status_code == 400 and "gold.zip: not a readable zip file" in bundle.content.decode()
    assert not SharedTask.objects.exists() and not Dataset.objects.exists()
