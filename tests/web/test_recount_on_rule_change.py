"""An organizer changing who counts (a phase's counting rule, the task's headline that
"best" compares, a submission withdrawn by hand in the admin) moves the pool and the
board at once: the next upload is not what brings the board up to date."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from leaderboard.models import MetricResult, Phase, Pool, PoolMember, SharedTask, Submission, Team
from leaderboard.services.hosting.host import edit_phase
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.standings import board_rows
from tests.conftest import SUBSET_OUTPUTS, build_insight_task, insight_head, remove_insight_task
from tests.web.admin_forms import post_change_form

pytestmark = pytest.mark.django_db
LINES = 10


@pytest.fixture(scope="module")
def rules_task(django_db_setup, django_db_blocker):
    """ann uploads BART, then GECToR-BERT, then T5 (latest); ben uploads T5; INPUT is the baseline."""
    from leaderboard.services.scoring_jobs.submission import score_submission

    with django_db_blocker.unblock():
        data = build_insight_task("rules", lines=LINES, teams={"ann": "BART", "ben": "T5"}, metrics=["errant"])
        ann = User.objects.get(username="ann")
        for system in ("GECToR-BERT", "T5"):
            content = insight_head(SUBSET_OUTPUTS / f"{system}.txt", LINES).encode()
            submission = accept_submission(
                data["phase"], ann, system_name=f"ann-{system}", filename="o.txt", content=content, queue=False
            )
            score_submission(submission.pk)
            data["submissions"][f"ann-{system}"] = submission
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def anns_on_board(data) -> list[int]:
    """ann's rows on the board as a visitor's next poll builds it, and in the pool."""
    ann = data["submissions"]["BART"].team.name
    rows = [r["submission_id"] for r in board_rows(data["phase"].pk, "errant.cs.f") if r["team"] == ann]
    pooled = set(PoolMember.objects.filter(pool__phase=data["phase"]).values_list("submission_id", flat=True))
    assert set(rows) <= pooled
    return rows


def best_of_ann(data, key: str = "f") -> int:
    anns = [data["submissions"][k] for k in ("BART", "ann-GECToR-BERT", "ann-T5")]
    value = {s.pk: MetricResult.objects.get(submission=s, metric="errant").scores["cs"][key] for s in anns}
    return max(value, key=lambda pk: (value[pk], pk))  # ties go to the latest


def staff_client(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


def test_a_new_counting_rule_on_the_phase_form_moves_the_board_at_once(rules_task):
    latest = rules_task["submissions"]["ann-T5"].pk
    assert anns_on_board(rules_task) == [latest] and best_of_ann(rules_task) != latest
    edit_phase(Phase.objects.get(pk=rules_task["phase"].pk), {"counting": "best"})
    assert anns_on_board(rules_task) == [best_of_ann(rules_task)]
    edit_phase(Phase.objects.get(pk=rules_task["phase"].pk), {"counting": "latest"})
    assert anns_on_board(rules_task) == [latest]


def test_a_new_counting_rule_in_the_admin_moves_the_board_at_once(rules_task, client):
    staff = staff_client(client)
    phase_id = rules_task["phase"].pk
    answer = post_change_form(staff, f"/admin/leaderboard/phase/{phase_id}/change/", {"counting": "best"})
    assert answer.status_code == 302 and Phase.objects.get(pk=phase_id).counting == "best"
    assert anns_on_board(rules_task) == [best_of_ann(rules_task)]
    task_url = f"/admin/leaderboard/sharedtask/{rules_task['task'].pk}/change/"
    answer = post_change_form(staff, task_url, {"phases-0-counting": "latest"})  # the task's phase inline
    assert answer.status_code == 302 and Phase.objects.get(pk=phase_id).counting == "latest"
    assert anns_on_board(rules_task) == [rules_task["submissions"]["ann-T5"].pk]


def test_a_new_headline_recounts_best_at_once(rules_task, client):
    best = {key: best_of_ann(rules_task, key) for key in "fpr"}
    assert len(set(best.values())) == 3, "the test needs a different best for each headline"
    edit_phase(Phase.objects.get(pk=rules_task["phase"].pk), {"counting": "best"})
    assert anns_on_board(rules_task) == [best["f"]]
    organizer = APIClient()
    organizer.force_authenticate(rules_task["organizer"])
    answer = organizer.patch("/api/tasks/rules/", {"headline_metric": "errant.cs.r"}, format="json")
    assert answer.status_code == 200 and anns_on_board(rules_task) == [best["r"]]
    staff = staff_client(client)
    task_url = f"/admin/leaderboard/sharedtask/{rules_task['task'].pk}/change/"
    assert post_change_form(staff, task_url, {"headline_metric": "errant.cs.p"}).status_code == 302
    assert SharedTask.objects.get(pk=rules_task["task"].pk).headline_metric == "errant.cs.p"
    assert anns_on_board(rules_task) == [best["p"]]


def test_a_submission_withdrawn_in_the_admin_leaves_the_board_at_once(rules_task, client):
    latest = rules_task["submissions"]["ann-T5"].pk
    url = f"/admin/leaderboard/submission/{latest}/change/"
    assert post_change_form(staff_client(client), url, {"hidden": "on"}).status_code == 302
    assert Submission.objects.get(pk=latest).hidden
    assert anns_on_board(rules_task) == [rules_task["submissions"]["ann-GECToR-BERT"].pk]  # the latest still in


def test_a_submission_deleted_in_the_admin_leaves_the_pool_first(rules_task, client):
    latest = rules_task["submissions"]["ann-T5"].pk
    staff = staff_client(client)
    answer = staff.post(f"/admin/leaderboard/submission/{latest}/delete/", {"post": "yes"})
    assert answer.status_code == 302 and not Submission.objects.filter(pk=latest).exists()
    assert anns_on_board(rules_task) == [rules_task["submissions"]["ann-GECToR-BERT"].pk]


def test_a_team_deleted_in_the_admin_leaves_the_pool_first(rules_task, client):
    """The cascade would drop ben's pool row without moving the success counts."""
    from leaderboard.services.pool import membership as pool

    phase = rules_task["phase"]
    ben = rules_task["submissions"]["T5"].team
    size = Pool.objects.get(phase=phase).size
    answer = staff_client(client).post(f"/admin/leaderboard/team/{ben.pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302 and not Team.objects.filter(pk=ben.pk).exists()
    assert Pool.objects.get(phase=phase).size == size - 1
    assert ben.name not in {r["team"] for r in board_rows(phase.pk, "errant.cs.f")}
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
