"""A zip member's name is checked before hidden files are left out: ``..\\cs-geccc.txt`` is
one name to ``zipfile`` (a zip separates folders with '/' only) that starts with a dot, so
it was dropped as a hidden file and an upload went on with two corpora of three. A name
holding a backslash, a '..' or a leading '/' is refused with the reason, naming the
member; hidden files and ``__MACOSX`` are still left out quietly."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

import scoring
from leaderboard.models import Submission
from leaderboard.services.data.archives import read_zip
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text

CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]


def zip_of(files: dict[str, bytes]) -> bytes:
    """The names exactly as given (``zipfile`` turns no backslash into '/' on POSIX)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name), data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    "member, says",
    [
        ("..\\cs-geccc.txt", "a backslash in the name"),
        ("outputs\\cs-geccc.txt", "a backslash in the name"),
        (".\\cs-geccc.txt", "a backslash in the name"),
        ("..\\.hidden.txt", "a backslash in the name"),
        ("../.cs-geccc.txt", "without '..'"),
        ("../cs-geccc.txt", "without '..'"),
        ("/cs-geccc.txt", "without '..'"),
        ("__MACOSX/../cs-geccc.txt", "without '..'"),
    ],
)
def test_a_member_whose_name_holds_a_separator_in_the_wrong_place_is_refused(member, says):
    data = zip_of({"uk-ua-gec.txt": b"a\n", member: b"b\n"})
    with pytest.raises(scoring.InputError) as raised:
        read_zip("mine.zip", data, max_members=5, max_bytes=10**6)
    [problem] = raised.value.problems
    assert problem.file == "mine.zip" and problem.message.startswith(f"{member}: ") and says in problem.message


def test_hidden_files_and_folders_are_still_left_out():
    data = zip_of(
        {"out/uk-ua-gec.txt": b"a\n", ".DS_Store": b"x", "__MACOSX/out/._uk-ua-gec.txt": b"x", "out/.hidden": b"x"}
    )
    assert read_zip("mine.zip", data, max_members=1, max_bytes=10**6) == {"out/uk-ua-gec.txt": b"a\n"}


@pytest.mark.django_db
def test_an_upload_with_a_backslashed_member_is_refused_not_taken_in_part(client):
    corpora_task("two", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)])
    client.force_login(User.objects.create_user("ana", password="pw"))
    content = zip_of({"uk-ua-gec.txt": text(UK_REF).encode(), "..\\cs-natwebinf.txt": text(CS_REF).encode()})
    answer = client.post(
        "/api/tasks/two/submissions/", {"system_name": "s", "file": SimpleUploadedFile("mine.zip", content)}
    )
    assert answer.status_code == 400, answer.content
    [error] = answer.json()["errors"]
    assert error["file"] == "mine.zip" and error["message"].startswith("..\\cs-natwebinf.txt: a backslash in the name")
    assert not Submission.objects.exists()


def test_a_bundle_manifest_nested_a_thousand_deep_is_refused_by_name():
    """The same rule for an organizer's bundle: its corpus.json is a bad file, never a RecursionError."""
    from leaderboard.services.data.corpora import read_manifest

    with pytest.raises(scoring.InputError) as raised:
        read_manifest(b'{"language": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    [problem] = raised.value.problems
    assert problem.file == "corpus.json" and "nested too deep" in problem.message
