"""The difficulty API in pages (opt-in ``limit``, ``after``): the pages, walked to the end,
are the whole answer's chunks, each with the same figures; without ``limit`` the answer is
unchanged (every chunk, no ``next_after``)."""

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/tasks/insight/difficulty/"


def answer(client, **params):
    response = client.get(URL, params)
    assert response.status_code == 200, response.content
    return response.json()


def test_pages_walked_to_the_end_are_the_whole_answer(insight_task, client):
    client.force_login(insight_task["organizer"])
    whole = answer(client)
    assert "next_after" not in whole and len(whole["chunks"]) > 7
    walked, after, pages = [], None, 0
    while True:
        page = answer(client, limit=7, **({} if after is None else {"after": after}))
        assert {k: page[k] for k in ("phase", "pool_size", "reference")} == {
            k: whole[k] for k in ("phase", "pool_size", "reference")
        }
        assert len(page["chunks"]) <= 7
        walked += page["chunks"]
        pages += 1
        after = page["next_after"]
        if after is None:
            break
    assert walked == whole["chunks"] and pages == -(-len(whole["chunks"]) // 7)


def test_paging_keeps_to_one_sentence(insight_task, client):
    client.force_login(insight_task["organizer"])
    one = answer(client, sentence=1)["chunks"]
    page = answer(client, sentence=1, limit=2)
    assert page["chunks"] == one[:2] and page["next_after"] == (one[1]["position"] if len(one) > 2 else None)


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 10001}, {"limit": "x"}, {"after": "-2"}])
def test_a_bad_page_is_a_400_naming_the_parameter(insight_task, client, params):
    client.force_login(insight_task["organizer"])
    response = client.get(URL, params)
    assert response.status_code == 400 and next(iter(params)) in response.content.decode()
