"""The board of a phase of several corpora: each corpus's GLEU, P, R, F0.5 and the macro
average the rows rank by, on the page, the API and every export; a team's latest upload
counts, in every corpus's pool at once."""

import csv
import io
import json

import pytest
from django.contrib.auth.models import User

from leaderboard.models import PoolMember
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.standings import board_rows
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
DE_SOURCE, DE_REF = LANGUAGES["de"]
CORPORA = {"cs-natwebinf": (CS_SOURCE, CS_REF), "de-merlin": (DE_SOURCE, DE_REF), "uk-ua-gec": (UK_SOURCE, UK_REF)}


@pytest.fixture
def phase(django_capture_on_commit_callbacks):
    phase = corpora_task("three", [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()])
    with django_capture_on_commit_callbacks(execute=True):
        for name, outputs in [
            ("copy", {n: text(s) for n, (s, _) in CORPORA.items()}),
            ("half", {"cs-natwebinf": text(CS_REF), "de-merlin": text(DE_SOURCE), "uk-ua-gec": text(UK_REF)}),
        ]:
            accept_submission(
                phase,
                User.objects.create_user(name),
                system_name=name,
                filename=f"{name}.zip",
                content=zipped({f"{n}.txt": t for n, t in outputs.items()}),
            )
    return phase


@pytest.fixture
def organizer(client, phase):
    user = User.objects.create_user("olga", password="pw")
    phase.task.organizers.add(user)
    client.force_login(user)
    return client


def test_each_corpus_and_the_macro_average(phase):
    rows = board_rows(phase.pk, "errant.cs.f")
    assert [r["system_name"] for r in rows] == ["half", "copy"]
    half = rows[0]
    per_corpus = [half["corpora"][name]["errant"]["cs"]["f"] for name in CORPORA]
    assert per_corpus == [pytest.approx(1.0), 0.0, pytest.approx(1.0)]
    assert half["value"] == pytest.approx(2 / 3) == half["scores"]["errant"]["cs"]["f"]
    gleu = [half["corpora"][name]["gleu"]["score"] for name in CORPORA]
    assert half["scores"]["gleu"]["score"] == pytest.approx(sum(gleu) / 3)


def test_the_page_shows_every_corpus_with_its_language_and_the_average(client, phase):
    page = client.get("/tasks/three/").content.decode()
    assert "Macro average" in page
    for name in CORPORA:
        assert f'data-corpus="{name}"' in page and f"?phase=dev--{name}" in page  # its heat map
    assert page.count('<td class="num" data-metric="macro"') == 2


def test_a_corpus_has_its_own_board_and_heat_map(organizer, phase):
    assert organizer.get("/tasks/three/?phase=dev--uk-ua-gec").status_code == 200
    assert organizer.get("/tasks/three/difficulty/?phase=dev--uk-ua-gec").status_code == 200
    heat_map = organizer.get("/tasks/three/difficulty/map/?phase=dev--uk-ua-gec")
    assert heat_map.status_code == 200 and "школ" in heat_map.content.decode()
    assert (
        'href="?phase=dev--' not in organizer.get("/tasks/three/").content.decode().split('id="leaderboard"')[0]
    )  # not a phase of the task's own


def test_an_upload_of_one_corpus_replaces_the_entry_in_that_corpus_only(phase, django_capture_on_commit_callbacks):
    user = User.objects.get(username="half")
    [zip_upload] = [r["submission_id"] for r in board_rows(phase.pk, "errant.cs.f") if r["team"] == "half"]
    with django_capture_on_commit_callbacks(execute=True):
        latest = accept_submission(
            phase, user, system_name="half-2", filename="h.zip", content=zipped({"uk-ua-gec.txt": text(UK_SOURCE)})
        )
    rows = board_rows(phase.pk, "errant.cs.f")
    assert {r["system_name"] for r in rows} == {"copy", "half-2"}
    [row] = [r for r in rows if r["team"] == "half"]
    assert row["submission_id"] == latest.pk
    assert row["corpus_uploads"] == {"cs-natwebinf": zip_upload, "de-merlin": zip_upload, "uk-ua-gec": latest.pk}
    assert row["corpora"]["uk-ua-gec"]["errant"]["cs"]["f"] == 0.0 and row["value"] == pytest.approx(
        1 / 3
    )  # cs 1, de 0, uk now 0
    members = PoolMember.objects.filter(submission__parent__team__name="half").values_list(
        "submission__parent_id", "submission__phase__corpus"
    )
    assert sorted(members) == sorted(
        [(zip_upload, "cs-natwebinf"), (zip_upload, "de-merlin"), (latest.pk, "uk-ua-gec")]
    )


def test_the_api_board_carries_the_corpora(client, phase):
    body = client.get("/api/tasks/three/leaderboard/?metric=gleu.score").json()
    row = body["rows"][0]
    assert set(row["corpora"]) == set(CORPORA) and "gleu" in row["scores"]


@pytest.mark.parametrize("fmt", ["csv", "json", "md", "tex"])
def test_exports_carry_the_per_corpus_columns(organizer, fmt):
    response = organizer.get(f"/api/tasks/three/leaderboard/export?format={fmt}&metric=errant.cs.f")
    assert response.status_code == 200
    body = response.content.decode()
    for name in CORPORA:
        assert name in body
    if fmt == "csv":
        groups, columns, *rows = list(csv.reader(io.StringIO(body)))
        assert groups[3] == "macro average" and "uk-ua-gec" in groups and "GLEU" in " ".join(columns)
        assert len(rows) == 2 and all(len(r) == len(columns) for r in rows)
    if fmt == "json":
        first = json.loads(body)["rows"][0]
        assert (first["System"], first["uk-ua-gec ERRANT cs F"], first["de-merlin ERRANT cs F"]) == (
            "half",
            pytest.approx(1.0),
            0.0,
        )
        assert first["macro average ERRANT cs F"] == pytest.approx(2 / 3)


def test_the_task_api_lists_the_corpora(client, phase):
    [listed] = client.get("/api/tasks/three/").json()["phases"]
    assert listed["kind"] == "dev" and listed["n_sentences"] is None
    assert [(c["name"], c["lang"], c["n_sentences"]) for c in listed["corpora"]] == [
        ("cs-natwebinf", "cs", 2),
        ("de-merlin", "de", 2),
        ("uk-ua-gec", "uk", 2),
    ]


def test_a_rescore_scores_the_corpus_files_and_keeps_the_board(phase):
    from leaderboard.services.hosting.phases import rescore_with_ranks

    before = board_rows(phase.pk, "errant.cs.f")
    changes = rescore_with_ranks(phase.task)
    assert [(c["system_name"], c["moved"], c["changed_scores"]) for c in changes] == [
        ("half", False, 0),
        ("copy", False, 0),
    ]
    assert [(r["submission_id"], r["value"]) for r in board_rows(phase.pk, "errant.cs.f")] == [
        (r["submission_id"], r["value"]) for r in before
    ]


def test_an_upload_on_the_board_counts_for_its_team(client, phase):
    upload = board_rows(phase.pk, "errant.cs.f")[0]["submission_id"]
    client.force_login(User.objects.get(username="half"))
    assert 'id="counts"' in client.get(f"/tasks/three/submissions/{upload}/").content.decode()
    assert "counts" in client.get("/tasks/three/submissions/?phase=dev").content.decode()


def test_best_counts_the_upload_with_the_best_macro_average(django_capture_on_commit_callbacks):
    phase = corpora_task(
        "best", [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()], counting="best"
    )
    user = User.objects.create_user("bea")
    uploads = {
        "perfect": {f"{n}.txt": text(ref) for n, (_, ref) in CORPORA.items()},
        "copy": {f"{n}.txt": text(source) for n, (source, _) in CORPORA.items()},
        "partial": {"uk-ua-gec.txt": text(UK_REF)},  # no macro average: never the best
    }
    with django_capture_on_commit_callbacks(execute=True):
        for name, files in uploads.items():
            accept_submission(phase, user, system_name=name, filename=f"{name}.zip", content=zipped(files))
    [row] = board_rows(phase.pk, "errant.cs.f")
    assert row["system_name"] == "perfect" and row["value"] == pytest.approx(1.0)


def test_the_page_and_the_exports_have_the_same_macro_average_columns(organizer):
    import re

    page = organizer.get("/tasks/three/").content.decode()
    colspan = int(re.search(r'<th colspan="(\d+)" data-group="macro"', page).group(1))
    groups, columns, *_ = list(
        csv.reader(io.StringIO(organizer.get("/api/tasks/three/leaderboard/export?format=csv").content.decode()))
    )
    exported = [
        column for group, column in zip(groups, columns) if group == "macro average"
    ]  # the CSV repeats a group's name over its columns
    assert colspan == len(exported) >= 3  # the ranking score and the task's usual ones
