"""The board API in pages (opt-in ``limit``, ``offset``): pages walked to the end are the
whole answer's rows, ranks included, every other field unchanged; without ``limit`` the
answer is as before; a page has its own ETag and answers 304 while the board holds."""

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/tasks/insight/leaderboard/"


def answer(client, **params):
    response = client.get(URL, params)
    assert response.status_code == 200, response.content
    return response


def test_pages_walked_to_the_end_are_the_whole_board(insight_task, client):
    whole = answer(client, metric="errant.cs.f").json()
    assert "page" not in whole and len(whole["rows"]) >= 3
    rows, offset = [], 0
    while offset is not None:
        page = answer(client, metric="errant.cs.f", limit=2, offset=offset).json()
        assert {k: v for k, v in page.items() if k not in ("rows", "page")} == {
            k: v for k, v in whole.items() if k != "rows"
        }
        assert page["page"]["total"] == len(whole["rows"]) and page["page"]["offset"] == offset
        rows += page["rows"]
        offset = page["page"]["next_offset"]
    assert rows == whole["rows"]


def test_a_page_past_the_end_is_empty_and_the_last(insight_task, client):
    page = answer(client, limit=5, offset=100).json()
    assert page["rows"] == [] and page["page"]["next_offset"] is None


def test_a_page_has_its_own_etag_and_a_304_while_the_board_holds(insight_task, client):
    whole, page = answer(client), answer(client, limit=1)
    assert page["ETag"] != whole["ETag"]
    again = client.get(URL, {"limit": 1}, HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 1001}, {"limit": 2, "offset": "-1"}])
def test_a_bad_page_is_a_400_naming_the_parameter(insight_task, client, params):
    response = client.get(URL, params)
    assert response.status_code == 400
    assert ("offset" if "offset" in params else "limit") in response.content.decode()


def test_pages_asked_for_keep_nothing_per_page(insight_task, client):
    """Each (offset, limit) was its own entry in the default cache, for an hour: 400
    anonymous requests at distinct offsets made 400 entries in 0.66 s, and a board of
    1,000 rows (~1 KB each) could hold up to 2,000 pages of up to 1 MB per process. The
    parsed board is kept once per version; a page is cut from it per request."""
    from django.core.cache import cache

    answer(client, limit=1)
    before = len(cache._cache)
    for offset in range(50):
        for limit in (1, 2, 1000):
            answer(client, limit=limit, offset=offset)
    assert len(cache._cache) == before
