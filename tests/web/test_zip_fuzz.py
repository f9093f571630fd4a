"""Randomly damaged zips (846 of 3,000 zips with corrupted deflate data
were a 500): whatever a sound zip becomes when bytes are changed, cut, inserted or
removed, the zip readers answer with its files or a :class:`scoring.InputError` naming
it, never another exception. Thousands of zips go to the readers directly (a
participant's zip, an organizer's bundle of corpora, a plain gold bundle); a smaller
number through the real upload endpoint and the host form, which must answer 201/302
or 400, never 500."""

import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from leaderboard.services.data.archives import read_zip
from leaderboard.services.data.corpora import is_corpora_bundle, unpack_corpora
from leaderboard.services.data.gold import unpack_bundle
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text
from tests.support.zip_damage import mutate, zipped

CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
OUTPUTS = [("cs-natwebinf.txt", text(CS_REF * 40).encode()), ("uk-ua-gec.txt", text(UK_REF * 40).encode())]
BUNDLE = [
    ("cs-natwebinf/source.txt", text(CS_SOURCE).encode()),
    ("cs-natwebinf/ref1.txt", text(CS_REF).encode()),
    ("cs-natwebinf/corpus.json", b'{"language": "cs", "max_tokens": 100}'),
    ("uk-ua-gec/source.txt", text(UK_SOURCE).encode()),
    ("uk-ua-gec/ref1.txt", text(UK_REF).encode()),
]
# sound zips to damage: deflated, stored (CRC checks only), bzip2 and lzma members
SOUND = {
    "deflated": zipped(OUTPUTS),
    "stored": zipped(OUTPUTS, zipfile.ZIP_STORED),
    "bzip2": zipped(OUTPUTS, zipfile.ZIP_BZIP2),
    "lzma": zipped(OUTPUTS, zipfile.ZIP_LZMA),
    "bundle": zipped(BUNDLE),
    "stored bundle": zipped(BUNDLE, zipfile.ZIP_STORED),
}
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["flip", "flip", "flip", "cut", "insert", "delete"]),
        st.integers(0, 1 << 20),
        st.binary(min_size=1, max_size=8),
    ),
    min_size=1,
    max_size=5,
)


def named_refusal(call) -> None:
    """``call()`` returns, or raises InputError whose every problem names where it is:
    the zip, a corpus folder or a file in it."""
    try:
        call()
    except scoring.InputError as error:
        assert error.problems and all(p.file for p in error.problems), error.problems


@settings(max_examples=3000, deadline=None)
@given(base=st.sampled_from(sorted(SOUND)), edits=EDITS)
def test_a_participant_s_zip_however_damaged_is_read_or_refused_by_name(base, edits):
    named_refusal(lambda: read_zip("out.zip", mutate(SOUND[base], edits), max_members=2, max_bytes=1 << 20))


@settings(max_examples=1500, deadline=None)
@given(base=st.sampled_from(["bundle", "stored bundle", "deflated"]), edits=EDITS)
def test_an_organizer_s_bundle_however_damaged_is_read_or_refused_by_name(base, edits):
    data = mutate(SOUND[base], edits)
    named_refusal(
        lambda: unpack_corpora("gold.zip", data) if is_corpora_bundle(data) else unpack_bundle("gold.zip", data)
    )


@pytest.fixture
def phase(db):
    return corpora_task(
        "two", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)]
    )


@pytest.fixture
def ana(client, db):
    client.force_login(User.objects.create_user("ana", password="pw"))
    return client


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(["deflated", "stored", "lzma"]), edits=EDITS)
def test_the_upload_endpoint_answers_201_or_a_400_naming_the_file(phase, ana, base, edits):
    answer = ana.post(
        "/api/tasks/two/submissions/",
        {"system_name": "s", "file": SimpleUploadedFile("mine.zip", mutate(SOUND[base], edits))},
    )
    assert answer.status_code in (201, 400), answer.content
    if answer.status_code == 400:
        assert all(error.get("file") or error["message"].startswith("file: ") for error in answer.json()["errors"]), (
            answer.json()
        )  # "file: The submitted file is empty."


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_the_host_form_answers_a_damaged_bundle_with_a_400(host, edits):
    answer = host.post(
        "/host/",
        {
            "title": "M",
            "slug": "m",
            "metrics": ["errant"],
            "bundle": SimpleUploadedFile("gold.zip", mutate(SOUND["bundle"], edits)),
        },
    )
    assert answer.status_code in (302, 400), answer.status_code
