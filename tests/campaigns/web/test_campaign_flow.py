"""A campaign from creation to ranking, through the services.

On the insight task (20 sentences, three teams and the INPUT baseline): the screens are
sentences whose outputs differ, identical outputs collapsed, reproducible from the seed;
judgments are checked; the worker's ranking counts trusted annotators only, without the
control outputs.
"""

from __future__ import annotations

import pytest

from leaderboard.models import Assignment, Campaign, Screen
from tests.campaigns.support import annotator, careful_ranks, careless_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db


def outputs_of(data):
    from leaderboard.insights.per_sentence import output_lines

    return {s.pk: [line.split() for line in output_lines(s)[:20]] for s in data["submissions"].values()}


def test_screens_show_differing_outputs_collapsed_and_shuffled(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, outputs_per_screen=3
    )
    assert campaign.status == Campaign.Status.READY, campaign.message
    outputs = outputs_of(insight_task)
    for screen in Screen.objects.filter(campaign=campaign):
        texts = [o["text"] for o in screen.outputs]
        assert len(texts) == len(set(texts)) and 2 <= len(texts) <= 3
        for output in screen.outputs:
            for pk in output["systems"]:
                assert " ".join(outputs[pk][screen.line]) == output["text"]
        same = {pk for o in screen.outputs for pk in o["systems"]}
        distinct = {" ".join(outputs[pk][screen.line]) for pk in outputs}
        assert len(distinct) >= 2
        # every system sharing a shown output is on it
        for pk in outputs:
            if " ".join(outputs[pk][screen.line]) in texts:
                assert pk in same
    assert Assignment.objects.filter(campaign=campaign).count() == 20


def test_the_seed_makes_the_same_campaign(insight_task, django_capture_on_commit_callbacks):
    def shape(campaign):
        return [
            (a.annotator.username, a.position, a.screen.line, [o["text"] for o in a.screen.outputs])
            for a in Assignment.objects.filter(campaign=campaign)
            .select_related("screen", "annotator")
            .order_by("annotator__username", "position")
        ]

    first = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, name="one", seed=7
    )
    second = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, name="two", seed=7
    )
    third = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, name="three", seed=8
    )
    assert shape(first) == shape(second)
    assert shape(first) != shape(third)


def test_redundancy_repeats_and_controls_in_each_queue(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        annotators=["ann1", "ann2", "ann3"],
        screens_per_annotator=12,
        redundancy=2,
        repeats=2,
        controls=0.25,
        threshold=0.125,
    )
    for name in ("ann1", "ann2", "ann3"):
        queue = list(
            Assignment.objects.filter(campaign=campaign, annotator__username=name)
            .select_related("screen")
            .order_by("position")
        )
        assert len(queue) == 12
        assert sum(a.screen.is_control for a in queue) == 3
        repeats = [a for a in queue if a.repeat]
        assert len(repeats) == 2
        for repeat in repeats:  # first showing in the first half, the repeat in the second, reshuffled
            first = next(a for a in queue if a.screen.line == repeat.screen.line and not a.repeat)
            assert first.position < 6 <= repeat.position and first.screen_id != repeat.screen_id
            shown = [[o["systems"], o["text"]] for o in first.screen.outputs]
            again = [[o["systems"], o["text"]] for o in repeat.screen.outputs]
            assert sorted(shown) == sorted(again) and (shown != again or len(shown) == 1)
    judged_by = [
        len({a.annotator_id for a in s.assignments.all()})
        for s in Screen.objects.filter(campaign=campaign, is_control=False).exclude(assignments__repeat=True)
    ]  # a repeat is a screen of its own, its annotator's alone
    assert judged_by.count(1) <= 1 and set(judged_by) <= {
        1,
        2,
    }  # 3 x 7 regular screens, two annotators each: one is left alone
    for screen in Screen.objects.filter(campaign=campaign, is_control=True):
        controls = [o for o in screen.outputs if o["control_of"]]
        assert len(controls) == 1 and controls[0]["systems"] == []
        original = next(o for o in screen.outputs if o["key"] == controls[0]["control_of"])
        assert controls[0]["text"] != original["text"]


def test_annotators_by_e_mail_need_not_be_participants(insight_task, django_capture_on_commit_callbacks):
    annotator("outsider")
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        annotators=["outsider@example.org"],
    )
    assert [u.username for u in campaign.annotators.all()] == ["outsider"]


def test_bad_settings_are_all_named(insight_task):
    from leaderboard.campaigns.services.create import CampaignError, CampaignSettings, create_campaign

    with pytest.raises(CampaignError) as error:
        create_campaign(
            insight_task["task"],
            insight_task["organizer"],
            CampaignSettings(
                name="Bad Name",
                annotators=["nobody here"],
                screens_per_annotator=0,
                systems=[999999],
                mode="stars",
            ),
        )
    text = str(error.value)
    for part in ("name:", "nobody here", "screens_per_annotator", "999999", "mode:"):
        assert part in text


def test_judgments_are_checked(insight_task, django_capture_on_commit_callbacks):
    from leaderboard.campaigns.insights.campaigns import next_screen
    from leaderboard.campaigns.services.judging import AlreadyJudged, JudgmentError, record_judgment

    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    user = annotator("ann1")
    screen = next_screen(campaign, user)
    keys = [o["key"] for o in screen["outputs"]]
    with pytest.raises(JudgmentError, match="no rank for"):
        record_judgment(campaign, user, screen["item"], {keys[0]: 1})
    with pytest.raises(JudgmentError, match="from 1"):
        record_judgment(campaign, user, screen["item"], {k: 99 for k in keys})
    with pytest.raises(JudgmentError, match="no output Z"):
        record_judgment(campaign, user, screen["item"], {**{k: 1 for k in keys}, "Z": 1})
    with pytest.raises(JudgmentError, match="not one of your screens"):
        record_judgment(campaign, annotator("ann2"), screen["item"], {k: 1 for k in keys})
    with django_capture_on_commit_callbacks(execute=True):
        record_judgment(campaign, user, screen["item"], {k: 1 for k in keys})  # all tied
    with pytest.raises(AlreadyJudged):
        record_judgment(campaign, user, screen["item"], {k: 1 for k in keys})
    assert next_screen(campaign, user)["item"] != screen["item"]


def test_careless_annotator_is_untrusted_and_left_out(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        screens_per_annotator=12,
        controls=0.5,
        redundancy=1,
    )
    assert judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks, careful_ranks) == 12
    assert judge_all(campaign, annotator("ann2"), django_capture_on_commit_callbacks, careless_ranks) == 12
    campaign.refresh_from_db()
    results = campaign.results
    assert campaign.ranked_version == campaign.version == 24 + 2  # each acceptance bumps it too
    by_user = {a["user"]: a for a in results["annotators"]}
    assert by_user["ann1"]["trusted"] and by_user["ann1"]["p_value"] == pytest.approx(1 / 64)
    assert not by_user["ann2"]["trusted"] and by_user["ann2"]["p_value"] == 1.0
    assert by_user["ann1"]["controls"] == 6
    assert results["rankings"] <= 12 and results["excluded"]["untrusted_judgments"] == 12
    assert results["counted_annotators"] == 1
    assert set(results["systems"]) <= {"T5", "BART", "GECToR-BERT", "INPUT"} and results["systems"]
    assert results["clusters"] and all(len(v["range"]) == 2 for v in results["systems"].values())


def test_edits_mode_needs_a_mark_per_edit(insight_task, django_capture_on_commit_callbacks):
    from leaderboard.campaigns.insights.campaigns import next_screen
    from leaderboard.campaigns.services.judging import JudgmentError, record_judgment

    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, mode="edits"
    )
    user = annotator("ann1")
    screen = next_screen(campaign, user)
    assert screen["mode"] == "edits"
    ranks = {o["key"]: 1 for o in screen["outputs"]}
    with_edits = next(o for o in screen["outputs"] if o["edits"])
    with pytest.raises(JudgmentError, match=f"edits: {with_edits['key']} needs"):
        record_judgment(campaign, user, screen["item"], ranks, {})
    marks = {o["key"]: [False] * len(o["edits"]) for o in screen["outputs"]}
    with django_capture_on_commit_callbacks(execute=True):
        judgment = record_judgment(campaign, user, screen["item"], ranks, marks)
    assert judgment.edits == marks
    from leaderboard.campaigns.insights.judgments import judgments_table

    table = judgments_table(campaign)
    column = table.columns.index("edits_valid")
    assert "0" * len(with_edits["edits"]) in [row[column] for row in table.rows]


@pytest.mark.parametrize(
    ("screens", "share", "threshold", "named"),
    [
        (20, 0.1, 0.05, "2 control screens"),  # p >= 0.25: nobody could be trusted
        (12, 0.25, 0.05, "at least 5 control screens"),
        (10, 0.3, 0.0, "a threshold of 0"),
    ],
)
def test_too_few_controls_to_trust_anyone_are_named(insight_task, screens, share, threshold, named):
    """An annotator is trusted at a sign-test p of at most the threshold; n careful controls
    give at best 0.5^n, so fewer than the threshold needs would leave out every judgment."""
    from leaderboard.campaigns.services.create import CampaignError, CampaignSettings, create_campaign

    annotator("ann1")
    settings = CampaignSettings(
        name="few", annotators=["ann1"], screens_per_annotator=screens, controls=share, threshold=threshold
    )
    with pytest.raises(CampaignError, match="controls: .*no annotator could be trusted") as error:
        create_campaign(insight_task["task"], insight_task["organizer"], settings)
    assert named in str(error.value)


@pytest.mark.parametrize(
    ("screens", "share", "threshold"),
    [(10, 0.5, 0.05), (12, 0.25, 0.125), (20, 0.1, 0.25), (20, 0.0, 0.05), (20, 0.1, 1.0)],
)
def test_enough_controls_or_none_are_accepted(insight_task, screens, share, threshold):
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    annotator("ann1")
    settings = CampaignSettings(
        name="enough", annotators=["ann1"], screens_per_annotator=screens, controls=share, threshold=threshold
    )
    assert create_campaign(insight_task["task"], insight_task["organizer"], settings).name == "enough"
