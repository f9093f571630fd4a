"""Per-type tables and heat maps of a phase of several corpora: the
phase's per-type page shows each corpus's table for the uploads ticked on its board; a
corpus's page takes an upload's id too, as does the organizers' export; the board and
the pages link every corpus's table and heat map, the heat maps only for whom may see
them, and a refusal names the corpus and its phase rightly."""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from leaderboard.models import Phase
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
IS_SOURCE, IS_REF = LANGUAGES["is"]
CORPORA = ("cs-a", "uk-b", "is-c")


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    """Three corpora; anna uploads a one-corpus file for uk-b, then a zip of all three (her
    entry on every corpus); boris a zip of the sources (the do-nothing system)."""
    phase = corpora_task(
        "types",
        [
            corpus("cs-a", "cs", CS_SOURCE, CS_REF),
            corpus("uk-b", "uk", UK_SOURCE, UK_REF),
            corpus("is-c", "is", IS_SOURCE, IS_REF),
        ],
        ends_at=timezone.now() + dt.timedelta(days=3),
    )
    organizer = User.objects.create_user("olga")
    phase.task.organizers.add(organizer)
    anna, boris = User.objects.create_user("anna"), User.objects.create_user("boris")
    with django_capture_on_commit_callbacks(execute=True):
        one = accept_submission(
            phase,
            anna,
            system_name="nmt-uk",
            filename="uk-b.txt",
            content=text(UK_REF).encode(),
            corpus="uk-b",
            enforce_limits=False,
        )
    with django_capture_on_commit_callbacks(execute=True):
        full = accept_submission(
            phase,
            anna,
            system_name="nmt",
            filename="all.zip",
            content=zipped({"cs-a.txt": text(CS_REF), "uk-b.txt": text(UK_SOURCE), "is-c.txt": text(IS_REF)}),
            enforce_limits=False,
        )
    with django_capture_on_commit_callbacks(execute=True):
        copy = accept_submission(
            phase,
            boris,
            system_name="copy",
            filename="copy.zip",
            content=zipped({"cs-a.txt": text(CS_SOURCE), "uk-b.txt": text(UK_SOURCE), "is-c.txt": text(IS_SOURCE)}),
            enforce_limits=False,
        )
    return {"phase": phase, "organizer": organizer, "full": full, "one": one, "copy": copy}


def section(page: str, name: str) -> str:
    """The per-type section of one corpus."""
    match = re.search(rf'<section class="corpus-types" id="corpus-{name}".*?</section>', page, re.S)
    assert match, f"no section for {name}"
    return match.group(0)


def overall_f(block: str) -> list[str]:
    """The bold correction F of each system in a section's "all" row."""
    row = re.search(r'<tr class="overall">.*?</tr>', block, re.S).group(0)
    return re.findall(r"<b>([^<]+)</b>", row)[1:]


def test_the_phase_page_shows_each_corpus_table_for_the_uploads_ticked(client, season):
    page = client.get(
        f"/tasks/types/per-type/?phase=dev&systems={season['full'].pk}&systems={season['copy'].pk}"
    ).content.decode()
    assert "Pick one or more scored systems" not in page
    for name in CORPORA:
        block = section(page, name)
        assert f'id="per-type-{name}"' in block and "anna/nmt" in block and "boris/copy" in block
    assert (
        overall_f(section(page, "cs-a"))[0] == "100.0" and overall_f(section(page, "uk-b"))[0] != "100.0"
    )  # the zip's uk-b was the source
    assert page.count('data-chart="type-profile"') == 3 and len(set(re.findall(r'data-source="([^"]+)"', page))) == 3


def test_by_default_the_board_top_systems_are_shown_on_every_corpus(client, season):
    page = client.get("/tasks/types/per-type/?phase=dev").content.decode()
    for name in CORPORA:
        assert "boris/copy" in section(page, name)


def test_a_one_corpus_upload_stands_for_its_team_entry_elsewhere(client, season):
    """The uk-b upload has no cs-a file: on cs-a it stands for the team's entry there (the zip's)."""
    client.force_login(season["organizer"])  # the earlier upload is no longer on the board
    page = client.get(f"/tasks/types/per-type/?phase=dev&systems={season['one'].pk}").content.decode()
    assert overall_f(section(page, "uk-b")) == ["100.0"]  # the one-corpus file: the reference itself
    assert overall_f(section(page, "cs-a")) == ["100.0"] and "anna/nmt" in section(page, "cs-a")


def test_a_corpus_page_takes_the_upload_id_and_ticks_its_output(client, season):
    upload = season["full"]
    output = upload.corpus_outputs.get(phase__corpus="cs-a")
    page = client.get(f"/tasks/types/per-type/?phase=dev--cs-a&systems={upload.pk}").content.decode()
    assert 'id="per-type"' in page and "anna/nmt" in page
    assert f'value="{output.pk}" checked' in page
    assert "Development" not in page and "dev phase (cs-a corpus)" in page  # the heading names the corpus and its phase
    assert 'data-link="all-corpora"' in page


def test_an_id_the_viewer_may_not_see_stands_for_nothing(client, season):
    phase = season["phase"]
    Phase.objects.filter(pk=phase.pk).update(results_visibility=Phase.Visibility.ORGANIZERS)
    Phase.every.filter(parent=phase).update(results_visibility=Phase.Visibility.ORGANIZERS)
    anna = User.objects.get(username="anna")
    client.force_login(anna)
    answer = client.get(f"/tasks/types/per-type/?phase=dev&systems={season['copy'].pk}")
    assert answer.status_code == 403
    assert "The results of the dev phase are hidden" in answer.content.decode()
    answer = client.get(f"/tasks/types/per-type/?phase=dev--cs-a&systems={season['copy'].pk}")
    assert "The results of the dev phase (cs-a corpus) are hidden" in answer.content.decode()


def test_the_board_links_every_corpus_table_and_keeps_heat_maps_from_anonymous_visitors(client, season):
    page = client.get("/tasks/types/?phase=dev").content.decode()
    links = re.search(r'<div id="corpus-links".*?</div>', page, re.S).group(0)
    for name in CORPORA:
        assert f'href="/tasks/types/per-type/?phase=dev--{name}"' in links
    assert 'data-link="heatmap"' not in links and "/difficulty/" not in page
    assert "organizers only until the dev phase ends on" in links
    for name in CORPORA:  # the board's corpus headings link to what the visitor may open
        assert f'<a href="/tasks/types/per-type/?phase=dev--{name}">{name}</a>' in page
    refused = client.get("/tasks/types/difficulty/?phase=dev--uk-b")
    reason = refused.content.decode()
    assert refused.status_code == 403
    assert (
        "The difficulty map of the uk-b corpus shows the hidden references: organizers only until the dev phase ends on"
        in reason
    )
    assert "uk-b phase" not in reason


def test_organizers_see_the_heat_map_links(client, season):
    client.force_login(season["organizer"])
    page = client.get("/tasks/types/?phase=dev").content.decode()
    links = re.search(r'<div id="corpus-links".*?</div>', page, re.S).group(0)
    for name in CORPORA:
        assert f'href="/tasks/types/difficulty/?phase=dev--{name}"' in links
        assert f'<a href="/tasks/types/difficulty/?phase=dev--{name}">{name}</a>' in page
    assert client.get("/tasks/types/difficulty/?phase=dev--uk-b").status_code == 200


def test_heat_maps_open_to_everyone_once_the_phase_ended(client, season):
    phase = season["phase"]
    phase.ends_at = timezone.now() - dt.timedelta(minutes=1)
    phase.starts_at = timezone.now() - dt.timedelta(days=1)
    phase.save()
    page = client.get("/tasks/types/?phase=dev").content.decode()
    assert 'href="/tasks/types/difficulty/?phase=dev--is-c"' in page and 'id="heatmaps-closed"' not in page
    assert client.get("/tasks/types/difficulty/?phase=dev--is-c").status_code == 200


def test_the_export_takes_the_upload_id_with_a_corpus(client, season):
    client.force_login(season["organizer"])
    url = "/api/tasks/types/leaderboard/export?table=per_type&format=csv"
    upload, output = season["full"], season["full"].corpus_outputs.get(phase__corpus="cs-a")
    by_upload = client.get(f"{url}&phase=dev--cs-a&systems={upload.pk}")
    by_output = client.get(f"{url}&phase=dev--cs-a&systems={output.pk}")
    assert by_upload.status_code == 200 and by_upload.content == by_output.content and b"anna/nmt" in by_upload.content
    whole = client.get(f"{url}&phase=dev&systems={upload.pk}")
    assert whole.status_code == 400
    assert "dev--cs-a" in whole.json()["errors"][0]["message"]
    page = client.get(f"/tasks/types/per-type/?phase=dev&systems={upload.pk}").content.decode()
    assert (
        f"phase=dev--uk-b&amp;table_metric=errant&amp;cat=2&amp;systems={upload.pk}" in page
    )  # each corpus's export link


def test_every_corpus_link_opens_for_whom_it_is_shown_in_every_state(season):
    """Open, frozen, ended, revealed; results public or the organizers' until revealed;
    anonymous, each team, organizer: the per-type links show when the results are visible,
    the heat-map links when the references are, and every link shown answers 200."""
    from django.test import Client

    from leaderboard import access
    from leaderboard.models import Phase

    states = {
        "open": {"frozen_at": None, "ends_at": timezone.now() + dt.timedelta(days=3), "revealed": False},
        "frozen": {"frozen_at": timezone.now(), "ends_at": timezone.now() + dt.timedelta(days=3), "revealed": False},
        "ended": {"frozen_at": None, "ends_at": timezone.now() - dt.timedelta(hours=1), "revealed": False},
        "revealed": {"frozen_at": None, "ends_at": timezone.now() - dt.timedelta(hours=1), "revealed": True},
    }
    viewers = {
        "anonymous": None,
        "anna": User.objects.get(username="anna"),
        "boris": User.objects.get(username="boris"),
        "organizer": season["organizer"],
    }
    phase = season["phase"]
    checked = 0
    for visibility in (Phase.Visibility.PUBLIC, Phase.Visibility.ORGANIZERS):
        for state, fields in states.items():
            phase = Phase.objects.get(pk=season["phase"].pk)
            for name, value in {"results_visibility": visibility, **fields}.items():
                setattr(phase, name, value)
            phase.save()  # the corpora take it over
            corpus_phase = phase.corpora()[0]
            for viewer, user in viewers.items():
                client = Client()
                if user:
                    client.force_login(user)
                page = client.get("/tasks/types/?phase=dev").content.decode()
                block = re.search(r'<div id="corpus-links".*?</div>', page, re.S)
                links = re.findall(r'href="([^"]+)"', block.group(0)) if block else []
                who = user or AnonymousUser()
                results, references = (
                    access.may_see_results(corpus_phase, who),
                    access.may_see_references(corpus_phase, who),
                )
                where = (visibility, state, viewer)
                assert sum("/per-type/" in link for link in links) == (len(CORPORA) if results else 0), where
                assert sum("/difficulty/" in link for link in links) == (len(CORPORA) if references else 0), where
                headings = re.findall(r'<th colspan="\d+" data-corpus="[^"]+"[^>]*><a href="([^"]+)"', page)
                for link in links + headings:
                    assert client.get(link.replace("&amp;", "&")).status_code == 200, (where, link)
                    checked += 1
    assert checked > 50
