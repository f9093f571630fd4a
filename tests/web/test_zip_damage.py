"""No 500 from a zip: an encrypted member, corrupt
deflate data, an archive cut short, a bad CRC or the same file twice is refused with a
400 naming the zip and the member, for a participant's upload (web page, API) and an
organizer's bundle (host form, create_task); a refused upload in a task whose teams
need approval registers no team; ``max_tokens`` of a bundle and of the host form has an
upper bound. (gec-submit: tests/platform/test_client_zip_damage.py; random damage:
tests/web/test_zip_fuzz.py.)"""

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

import scoring
from leaderboard.models import SharedTask, Submission, Team
from leaderboard.services.data.archives import read_zip
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text
from tests.support.zip_damage import KINDS, SAYS, damaged

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
OUTPUTS = {"cs-natwebinf.txt": text(CS_REF).encode(), "uk-ua-gec.txt": text(UK_REF).encode()}
BUNDLE = {
    "cs-natwebinf/source.txt": text(CS_SOURCE).encode(),
    "cs-natwebinf/ref1.txt": text(CS_REF).encode(),
    "uk-ua-gec/source.txt": text(UK_SOURCE).encode(),
    "uk-ua-gec/ref1.txt": text(UK_REF).encode(),
}


def named(kind: str, member: str) -> str:
    """What the problem says: the member too, wherever the zip still names it."""
    return SAYS[kind] if kind == "truncated" else f"{member}: {SAYS[kind]}"


@pytest.fixture
def phase():
    return corpora_task(
        "two", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)]
    )


@pytest.fixture
def ana(client):
    client.force_login(User.objects.create_user("ana", password="pw"))
    return client


@pytest.mark.parametrize("kind", KINDS)
def test_the_reader_names_the_zip_and_the_member(kind):
    with pytest.raises(scoring.InputError) as raised:
        read_zip("out.zip", damaged(kind, OUTPUTS, "uk-ua-gec.txt"), max_members=5, max_bytes=10**6)
    [problem] = raised.value.problems
    assert problem.file == "out.zip" and named(kind, "uk-ua-gec.txt") in problem.message


@pytest.mark.parametrize("kind", KINDS)
def test_a_participant_s_damaged_zip_is_a_400_naming_it_on_the_api_and_the_page(phase, ana, kind):
    content = damaged(kind, OUTPUTS, "uk-ua-gec.txt")
    api = ana.post("/api/tasks/two/submissions/", {"system_name": "s", "file": SimpleUploadedFile("mine.zip", content)})
    assert api.status_code == 400
    [error] = api.json()["errors"]
    assert error["file"] == "mine.zip" and named(kind, "uk-ua-gec.txt") in error["message"]
    page = ana.post("/tasks/two/submit/", {"system_name": "s", "file": SimpleUploadedFile("mine.zip", content)})
    assert (
        page.status_code == 400
        and "mine.zip" in page.content.decode()
        and named(kind, "uk-ua-gec.txt") in page.content.decode()
    )
    assert not Submission.objects.exists() and not Team.objects.exists()  # nothing kept, not even the team of one


def test_the_same_corpus_file_twice_is_refused_though_each_copy_is_sound(phase, ana):
    answer = ana.post(
        "/api/tasks/two/submissions/",
        {
            "system_name": "s",
            "file": SimpleUploadedFile("mine.zip", damaged("the same file twice", OUTPUTS, "cs-natwebinf.txt")),
        },
    )
    assert answer.status_code == 400 and answer.json()["errors"] == [
        {"line": 0, "message": "cs-natwebinf.txt: in the zip twice; keep one copy", "file": "mine.zip"}
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_an_organizer_s_damaged_bundle_is_a_400_naming_it_on_the_host_form(host, kind):
    content = damaged(kind, BUNDLE, "uk-ua-gec/ref1.txt")
    answer = host.post(
        "/host/",
        {
            "title": "MultiGEC",
            "slug": "multigec",
            "metrics": ["errant", "gleu"],
            "bundle": SimpleUploadedFile("multigec.zip", content),
        },
    )
    page = answer.content.decode()
    assert answer.status_code == 400 and "multigec.zip" in page and named(kind, "uk-ua-gec/ref1.txt") in page
    assert not SharedTask.objects.exists()


@pytest.mark.parametrize("kind", KINDS)
def test_create_task_refuses_a_damaged_bundle_naming_it(tmp_path, kind):
    bundle = tmp_path / "multigec.zip"
    bundle.write_bytes(damaged(kind, BUNDLE, "uk-ua-gec/ref1.txt"))
    with pytest.raises(CommandError) as raised:
        call_command("create_task", "multigec", "--corpora", str(bundle))
    assert "multigec.zip" in str(raised.value) and named(kind, "uk-ua-gec/ref1.txt") in str(raised.value)
    assert not SharedTask.objects.exists()


def test_create_task_takes_a_sound_bundle_zip(tmp_path, capsys):
    from tests.support.zip_damage import zipped

    bundle = tmp_path / "multigec.zip"
    bundle.write_bytes(zipped(list(BUNDLE.items())))
    call_command("create_task", "multigec", "--corpora", str(bundle), "--metrics", "errant")
    assert (
        "phase dev of 2 corpora: cs-natwebinf (cs, 2 lines, 1 ref.), uk-ua-gec (uk, 2 lines, 1 ref.)"
        in capsys.readouterr().out
    )


def test_a_refused_upload_in_a_task_of_approved_teams_registers_no_team(phase, ana):
    SharedTask.objects.filter(pk=phase.task_id).update(signup=SharedTask.Signup.APPROVAL)
    bad = ana.post(
        "/api/tasks/two/submissions/",
        {
            "system_name": "s",
            "file": SimpleUploadedFile("mine.zip", damaged("corrupt deflate data", OUTPUTS, "cs-natwebinf.txt")),
        },
    )
    assert bad.status_code == 400
    from tests.support.corpora_support import zipped

    sound = ana.post(
        "/api/tasks/two/submissions/", {"system_name": "s", "file": SimpleUploadedFile("mine.zip", zipped(OUTPUTS))}
    )
    assert sound.status_code == 403 and "Register your team first" in sound.json()["errors"][0]["message"]
    assert not Team.objects.exists() and not Submission.objects.exists()


def test_a_first_upload_in_an_open_task_still_registers_the_team_of_one(phase, ana):
    from tests.support.corpora_support import zipped

    answer = ana.post(
        "/api/tasks/two/submissions/", {"system_name": "s", "file": SimpleUploadedFile("mine.zip", zipped(OUTPUTS))}
    )
    assert answer.status_code == 201 and list(Team.objects.values_list("name", flat=True)) == ["ana"]


@pytest.mark.parametrize("value", [scoring.MAX_LINE_TOKENS + 1, 10**9, 0, -3, "5000", 2.5, True])
def test_max_tokens_of_a_bundle_is_bounded(host, value):
    from tests.support.corpora_support import zipped

    files = {**{k: v.decode() for k, v in BUNDLE.items()}, "uk-ua-gec/corpus.json": json.dumps({"max_tokens": value})}
    answer = host.post(
        "/host/",
        {
            "title": "MultiGEC",
            "slug": "multigec",
            "metrics": ["errant"],
            "bundle": SimpleUploadedFile("multigec.zip", zipped(files)),
        },
    )
    assert (
        answer.status_code == 400
        and f"max_tokens must be a whole number from 1 to {scoring.MAX_LINE_TOKENS}" in answer.content.decode()
    )


def test_max_tokens_on_the_host_form_is_bounded(host):
    files = {
        "source": SimpleUploadedFile("source.txt", b"a b\n"),
        "references": [SimpleUploadedFile("ref.txt", b"a c\n")],
    }
    answer = host.post(
        "/host/", {"title": "T", "slug": "t", "metrics": ["errant"], "max_tokens": scoring.MAX_LINE_TOKENS + 1, **files}
    )
    assert answer.status_code == 400 and f"less than or equal to {scoring.MAX_LINE_TOKENS}" in answer.content.decode()
    assert not SharedTask.objects.exists()


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_bundle_for_a_new_phase_and_a_damaged_baseline_zip_are_refused_by_name(phase, host, kind):
    phase.task.organizers.add(User.objects.get(username="hannah"))
    bundle = damaged(kind, BUNDLE, "uk-ua-gec/ref1.txt")
    answer = host.post(
        "/tasks/two/phases/new/",
        {
            "kind": "test",
            "time_zone": "UTC",
            "results_visibility": "public",
            "counting": "latest",
            "gleu_variant": "official",
            "bundle": SimpleUploadedFile("gold.zip", bundle),
        },
    )
    page = answer.content.decode()
    assert answer.status_code == 400 and "gold.zip" in page and named(kind, "uk-ua-gec/ref1.txt") in page
    baseline = host.post(
        "/tasks/two/baselines/",
        {
            "phase": "dev",
            "system_name": "copy",
            "file": SimpleUploadedFile("base.zip", damaged(kind, OUTPUTS, "uk-ua-gec.txt")),
        },
        follow=True,
    )
    assert baseline.status_code == 200 and named(kind, "uk-ua-gec.txt") in baseline.content.decode()
    assert not Submission.objects.exists() and phase.task.phases.count() == 1
