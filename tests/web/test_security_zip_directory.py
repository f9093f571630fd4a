"""A zip's member count and directory size are read from its end record before ``zipfile``
builds one object per member: a zip of 100,000 empty members (9 MB) was refused only
after 6-7 s, and three at once held every web worker for 20 s."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

import scoring
from leaderboard.services.data.archives import read_zip
from tests.web.hostile import MEMBERS, many_member_zip


def refused_without_listing(data: bytes, monkeypatch) -> str:
    def listed(*_args, **_kwargs):
        raise AssertionError("zipfile read the central directory")

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", listed)
    with pytest.raises(scoring.InputError) as raised:
        read_zip("many.zip", data, max_members=3, max_bytes=10**8)
    return str(raised.value)


def test_a_zip_of_many_members_is_refused_from_its_end_record(monkeypatch):
    assert f"{MEMBERS} files in the zip; at most 3" in refused_without_listing(many_member_zip(), monkeypatch)


def test_a_count_that_lies_is_caught_by_the_directorys_size(monkeypatch):
    data = bytearray(many_member_zip(10_000))
    end = data.rindex(b"PK\x05\x06")
    data[end + 8 : end + 12] = struct.pack("<HH", 1, 1)  # "one member" on this disk and in all
    assert "directory has" in refused_without_listing(bytes(data), monkeypatch)


def test_a_sound_zip_is_still_read():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("dev.txt", b"a b\n")
    assert read_zip("ok.zip", buffer.getvalue(), max_members=3, max_bytes=100) == {"dev.txt": b"a b\n"}


def test_an_organizers_bundle_is_not_listed_before_its_count_is_checked(monkeypatch):
    """The phase form asks whether a bundle holds corpora (``is_corpora_bundle``) before
    ``read_zip``: that question listed the whole directory, 10 s for the 100,000-member
    zip, before the end record's count refused it."""
    from leaderboard.services.data.corpora import is_corpora_bundle

    listings = []
    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", lambda *_args: listings.append(1))
    assert is_corpora_bundle(many_member_zip()) is False
    assert listings == []
