"""Every query parameter is validated: a malformed value is a 4xx, never a 500.

``%00`` reached PostgreSQL as a DataError (``?phase=``), and ``'²'.isdigit()`` is true
while ``int('²')`` fails (``?systems=``, ``sentence=``, ``shown=``). Each parameter a
page or endpoint reads is asked with both, and must be a 400; then every URL of the
site is asked with every parameter and must not be a 500.
"""

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from tests.web.site_urls import site_urls

pytestmark = pytest.mark.django_db

BAD_VALUES = ("%00", "%C2%B2", "1%00", "x" * 300)

# URL name -> the parameters it reads (with a base query that makes it read them).
READS = {
    "task": ("", ("phase", "metric", "track")),
    "task-rows": ("", ("phase", "metric", "track", "since")),
    "submit": ("", ("phase",)),
    "per-type": ("", ("phase", "systems", "cat")),
    "difficulty": ("", ("phase", "cat", "type", "shown")),
    "difficulty-map": ("", ("phase", "cat", "type", "shown", "since")),
    "cleme2": ("", ("phase", "assumption")),
    "cleme2-sentences": ("", ("outcome", "page")),
    "api-leaderboard": ("", ("phase", "metric")),
    "api-leaderboard-export": ("", ("phase", "metric", "format", "table", "track", "metrics")),
    "api-leaderboard-export-per-type": ("table=per_type&", ("systems", "cat")),
    "api-difficulty": ("", ("phase", "sentence")),
    "my-submissions": ("", ("phase",)),
    "my-submissions-rows": ("", ("phase",)),
    "submission": ("", ("cat",)),
    "submission-per-sentence": ("", ("format",)),
    "team-join": ("", ("code",)),
    "api-my-submissions": ("", ("task",)),
    "api-my-submissions-by-phase": ("task=insight&", ("phase",)),
}
EVERY_PARAMETER = sorted({p for _, names in READS.values() for p in names})


@pytest.fixture
def organizer(insight_task):
    client = Client()
    client.force_login(insight_task["organizer"])
    return client


def url_of(name: str, insight_task) -> str:
    """The URL of ``name`` (a suffix after the URL name only tells two rows apart)."""
    name = name.removesuffix("-per-type").removesuffix("-by-phase")
    for kwargs in ({}, {"slug": "insight"}, {"slug": "insight", "pk": insight_task["submissions"]["T5"].pk}):
        try:
            return reverse(name, kwargs=kwargs)
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot reverse {name}")


@pytest.mark.parametrize("name", READS)
def test_each_parameter_read_is_a_400_when_malformed(name, insight_task, organizer):
    base, names = READS[name]
    for parameter in names:
        for value in BAD_VALUES:
            url = f"{url_of(name, insight_task)}?{base}{parameter}={value}"
            response = organizer.get(url)
            assert response.status_code == 400, f"{url}: {response.status_code}"


@pytest.mark.slow  # every URL with every parameter: tens of seconds
def test_every_url_with_every_parameter_is_never_a_500(insight_task, organizer):
    """As the organizer, who gets furthest into every view; ids include one past bigint."""
    ids = [str(insight_task["submissions"]["T5"].pk), "99999999999999999999"]
    for url in site_urls({"slug": ["insight"], "pk": ids, "action": ["freeze"]}):
        for parameter in EVERY_PARAMETER:
            response = organizer.get(f"{url}?{parameter}=%00%C2%B2")
            assert response.status_code < 500, f"{url}?{parameter}=%00%C2%B2: {response.status_code}"


def test_an_unknown_metric_lists_the_valid_paths(insight_task, client):
    response = client.get("/api/tasks/insight/leaderboard/", {"metric": "errant.cs.nope"})
    assert response.status_code == 400
    body = response.json()
    assert {"errant.cs.f", "errant.ds.f", "gotoscorer.f"} <= set(body["valid"])
    assert "errant.cs.nope" in body["errors"][0]["message"] and "errant.cs.f" in body["errors"][0]["message"]
    page = client.get("/tasks/insight/", {"metric": "errant.cs.nope"})
    assert (
        page.status_code == 400
        and 'id="valid-values"' in page.content.decode()
        and "<code>errant.ds.f</code>" in page.content.decode()
    )


def test_a_stored_path_beyond_the_headline_ones_is_valid(insight_task, client):
    assert client.get("/api/tasks/insight/leaderboard/", {"metric": "errant.ds.f"}).json()["metric"] == "errant.ds.f"
    assert client.get("/tasks/insight/", {"metric": "gotoscorer.unweighted.f"}).status_code == 200


def test_systems_of_other_teams_that_are_not_on_the_board_are_left_out(insight_task, client):
    """``?systems=`` picks among the systems the visitor may see (the board's)."""
    from leaderboard.models import MetricResult, Submission

    t5 = insight_task["submissions"]["T5"]
    off_board = Submission.objects.create(
        phase=t5.phase, team=t5.team, system_name="zqvoffboard", filename="x.txt", content=b"", size=0, status="scored"
    )
    result = MetricResult.objects.get(submission=t5, metric="errant")
    result.pk, result.submission = None, off_board  # scored like T5, but superseded: off the board
    result.save()
    html = client.get("/tasks/insight/per-type/", {"systems": [t5.pk, off_board.pk]}).content.decode()
    assert "zqvoffboard" not in html
