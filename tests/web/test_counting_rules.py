"""Which submission of a team counts (board, pool, exports): latest, best, chosen; withdrawn never; baselines always."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import MetricResult, Phase, Submission
from leaderboard.services.pool import membership as pool
from leaderboard.services.submissions.actions import ActionRefused, choose, restore, withdraw
from leaderboard.standings import board_rows
from tests.conftest import SUBSET_OUTPUTS, build_insight_task, insight_head, remove_insight_task

pytestmark = pytest.mark.django_db
LINES = 10


@pytest.fixture(scope="module")
def counting_task(django_db_setup, django_db_blocker):
    """ann uploads T5, then GECToR-BERT, then BART; ben uploads BART; INPUT is the baseline."""
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    with django_db_blocker.unblock():
        data = build_insight_task("counting", lines=LINES, teams={"ann": "T5", "ben": "BART"})
        ann = User.objects.get(username="ann")
        for system in ("GECToR-BERT", "BART"):
            content = insight_head(SUBSET_OUTPUTS / f"{system}.txt", LINES).encode()
            submission = accept_submission(
                data["phase"],
                ann,
                system_name=f"ann-{system}",
                filename="out.txt",
                content=content,
                enforce_limits=False,
                queue=False,
            )
            score_submission(submission.pk)
            data["submissions"][f"ann-{system}"] = submission
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def use_rule(data, counting: str) -> Phase:
    Phase.objects.filter(pk=data["phase"].pk).update(counting=counting)
    pool.sync_pool(data["phase"].pk)
    return Phase.objects.get(pk=data["phase"].pk)


def anns_on_board(data) -> list[int]:
    ann_team = data["submissions"]["T5"].team
    return [r["submission_id"] for r in board_rows(data["phase"].pk, "errant.cs.f") if r["team"] == ann_team.name]


def f_of(submission) -> float:
    return MetricResult.objects.get(submission=submission, metric="errant").scores["cs"]["f"]


def test_latest_counts_and_the_baseline_is_always_in(counting_task):
    use_rule(counting_task, "latest")
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]
    members = pool.wanted_members(counting_task["phase"].pk)
    assert counting_task["submissions"]["INPUT"].pk in members and counting_task["submissions"]["BART"].pk in members
    assert len(members) == 3


def test_best_on_the_headline_metric_counts(counting_task):
    use_rule(counting_task, "best")
    anns = [counting_task["submissions"][k] for k in ("T5", "ann-GECToR-BERT", "ann-BART")]
    best = max(anns, key=lambda s: (f_of(s), s.pk))
    assert anns_on_board(counting_task) == [best.pk]
    assert counting_task["submissions"]["INPUT"].pk in pool.wanted_members(counting_task["phase"].pk)


def test_best_ties_go_to_the_latest(counting_task):
    anns = [counting_task["submissions"][k] for k in ("T5", "ann-GECToR-BERT", "ann-BART")]
    for s in anns:
        result = MetricResult.objects.get(submission=s, metric="errant")
        result.scores["cs"]["f"] = 0.5
        result.save()
    use_rule(counting_task, "best")
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]


def test_best_follows_the_tasks_headline_metric(counting_task):
    counting_task["task"].__class__.objects.filter(pk=counting_task["task"].pk).update(headline_metric="errant.cs.p")
    use_rule(counting_task, "best")
    anns = [counting_task["submissions"][k] for k in ("T5", "ann-GECToR-BERT", "ann-BART")]
    precision = {s.pk: MetricResult.objects.get(submission=s, metric="errant").scores["cs"]["p"] for s in anns}
    assert anns_on_board(counting_task) == [max(precision, key=lambda pk: (precision[pk], pk))]


def test_chosen_counts_else_the_latest(counting_task):
    use_rule(counting_task, "chosen")
    t5 = Submission.objects.get(pk=counting_task["submissions"]["T5"].pk)
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]
    choose(t5)
    assert anns_on_board(counting_task) == [t5.pk]  # the board (the pool) follows at once
    other = Submission.objects.get(pk=counting_task["submissions"]["ann-GECToR-BERT"].pk)
    choose(other)
    assert anns_on_board(counting_task) == [other.pk]
    assert list(Submission.objects.filter(team=t5.team, chosen=True).values_list("pk", flat=True)) == [other.pk]


def test_a_withdrawn_submission_never_counts(counting_task):
    use_rule(counting_task, "chosen")
    t5 = Submission.objects.get(pk=counting_task["submissions"]["T5"].pk)
    choose(t5)
    withdraw(t5)
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]
    use_rule(counting_task, "latest")
    latest = Submission.objects.get(pk=counting_task["submissions"]["ann-BART"].pk)
    withdraw(latest)
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-GECToR-BERT"].pk]
    restore(latest)
    assert anns_on_board(counting_task) == [latest.pk]


def test_choosing_is_refused_unless_the_rule_is_chosen_and_the_phase_open(counting_task):
    use_rule(counting_task, "latest")
    with pytest.raises(ActionRefused, match="latest scored submission counts"):
        choose(Submission.objects.get(pk=counting_task["submissions"]["T5"].pk))
    phase = use_rule(counting_task, "chosen")
    from leaderboard.services.hosting.phases import freeze

    freeze(phase)
    with pytest.raises(ActionRefused, match="frozen"):
        choose(Submission.objects.get(pk=counting_task["submissions"]["T5"].pk))


def test_only_the_team_chooses_through_the_page(counting_task):
    use_rule(counting_task, "chosen")
    t5 = counting_task["submissions"]["T5"]
    url = f"/tasks/counting/submissions/{t5.pk}/choose/"
    ben = Client()
    ben.force_login(User.objects.get(username="ben"))
    assert ben.post(url).status_code == 404
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]
    ann = Client()
    ann.force_login(User.objects.get(username="ann"))
    assert ann.get(url).status_code == 200  # a confirmation page: a GET never acts
    assert anns_on_board(counting_task) == [counting_task["submissions"]["ann-BART"].pk]
    assert ann.post(url).status_code == 302
    assert anns_on_board(counting_task) == [t5.pk]
    html = ann.get("/tasks/counting/submissions/").content.decode()
    row = html.split(f'data-submission="{t5.pk}"')[1].split("</tr>")[0]
    assert "<b>counts</b>" in row


def test_best_on_a_pool_metric_compares_an_independent_one(counting_task):
    """GoToScorer's scores depend on who is in the pool: "best" on it would keep whoever is in."""
    from leaderboard.models import SharedTask
    from leaderboard.services.pool.membership import best_metric

    SharedTask.objects.filter(pk=counting_task["task"].pk).update(headline_metric="gotoscorer.f")
    assert best_metric(SharedTask.objects.get(pk=counting_task["task"].pk)) == "errant.cs.f"
    use_rule(counting_task, "best")
    anns = [counting_task["submissions"][k] for k in ("T5", "ann-GECToR-BERT", "ann-BART")]
    assert anns_on_board(counting_task) == [max(anns, key=lambda s: (f_of(s), s.pk)).pk]


def test_with_every_submission_pooled_a_withdrawn_one_still_leaves(counting_task, settings):
    settings.GEC_POOL = "all"
    use_rule(counting_task, "latest")
    assert len(anns_on_board(counting_task)) == 3
    withdraw(Submission.objects.get(pk=counting_task["submissions"]["T5"].pk))
    assert counting_task["submissions"]["T5"].pk not in anns_on_board(counting_task)
