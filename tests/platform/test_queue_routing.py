"""Costly files go to their own queue with a bigger time budget (fair queues)."""

from leaderboard.services.scoring_jobs.cost import cost_of, submission_cost
from leaderboard.services.scoring_jobs.queued import score_queued


def test_an_ordinary_output_uses_the_default_queue(phase, small_texts, settings):
    cost = cost_of(small_texts["T5"].encode(), phase.dataset_id)
    assert cost.queue is None
    assert cost.seconds == int(
        settings.GEC_TIME_BUDGET_BASE + settings.GEC_TIME_BUDGET_PER_1K_TOKENS * cost.tokens / 1000
    )


def test_a_file_with_many_more_tokens_than_the_source_goes_to_the_large_queue(phase, small_texts, settings):
    wide = "".join(" ".join(["word"] * 1000) + "\n" for _ in small_texts["source"].splitlines())
    cost = cost_of(wide.encode(), phase.dataset_id)
    assert cost.queue == settings.GEC_LARGE_QUEUE == "scoring-large"
    assert cost.seconds == min(
        settings.GEC_SCORING_TIME_LIMIT,
        int(settings.GEC_TIME_BUDGET_BASE + settings.GEC_TIME_BUDGET_PER_1K_TOKENS * 20),
    )


def test_routing_can_be_switched_off(phase, small_texts, settings):
    settings.GEC_LARGE_QUEUE = ""
    assert cost_of(("word " * 100_000).encode(), phase.dataset_id).queue is None


def test_the_message_carries_queue_and_budget(phase, alice, small_texts, settings, monkeypatch):
    from leaderboard import queue as jobs
    from leaderboard.models import Submission
    from leaderboard.services.submissions.intake import team_of

    sent = []
    monkeypatch.setattr(jobs.celery_app, "send_task", lambda *args, **kwargs: sent.append((args, kwargs)))
    settings.GEC_TASK_MODE = "celery"
    content = "".join(" ".join(["word"] * 1000) + "\n" for _ in small_texts["source"].splitlines()).encode()
    submission = Submission.objects.create(
        phase=phase,
        team=team_of(alice, phase.task),
        system_name="s",
        filename="s.txt",
        content=content,
        size=len(content),
    )
    score_queued.enqueue(submission.pk)
    cost = submission_cost(submission.pk)
    assert sent == [
        (
            ("leaderboard.tasks.score_submission", (submission.pk,)),
            {
                "kwargs": {"budget": cost.seconds},
                "soft_time_limit": cost.seconds,
                "time_limit": cost.seconds + 60,
                "queue": "scoring-large",
            },
        )
    ]


def test_similarity_weights_add_their_forward_passes_to_the_budget(phase, small_texts, settings):
    """A legal essay with similarity-weighted CLEME2.0 takes minutes of forward
    passes; the budget counts them (changed lines only, each up to the model's length)."""
    settings.GEC_SCORING_TIME_LIMIT = 100_000
    plain = cost_of(small_texts["T5"].encode(), phase.dataset_id)
    with_sim = cost_of(small_texts["T5"].encode(), phase.dataset_id, sim=True)
    assert with_sim.seconds > plain.seconds
    copy = small_texts["source"].encode()
    assert cost_of(copy, phase.dataset_id, sim=True).seconds == cost_of(copy, phase.dataset_id).seconds
    essay = (" ".join(["word"] * 5000) + "\n").encode()
    extra = cost_of(essay, phase.dataset_id, sim=True).seconds - cost_of(essay, phase.dataset_id).seconds
    assert abs(extra - 513 * settings.GEC_TIME_BUDGET_SIM_PASS) <= 1  # 513 passes of 512 pieces at most


def test_the_task_setting_decides(phase, alice, small_texts):
    from leaderboard.models import Submission
    from leaderboard.services.submissions.intake import team_of

    content = small_texts["T5"].encode()
    submission = Submission.objects.create(
        phase=phase,
        team=team_of(alice, phase.task),
        system_name="s",
        filename="s.txt",
        content=content,
        size=len(content),
    )
    metrics = len(phase.task.metric_names())
    assert submission_cost(submission.pk) == cost_of(content, phase.dataset_id, sim=phase.task.sim, metrics=metrics)
    phase.task.sim = not phase.task.sim
    phase.task.save()
    assert submission_cost(submission.pk) == cost_of(content, phase.dataset_id, sim=phase.task.sim, metrics=metrics)


def test_the_estimate_counts_changed_tokens_metrics_and_similarity_passes(phase, small_texts, settings):
    """The queue follows the expected work, not only the file's size."""
    copy = small_texts["source"].encode()
    assert cost_of(copy, phase.dataset_id, sim=True, metrics=4).estimate == 0  # nothing changed, nothing to do
    t5 = small_texts["T5"].encode()
    one, four = cost_of(t5, phase.dataset_id, metrics=1).estimate, cost_of(t5, phase.dataset_id, metrics=4).estimate
    assert 0 < one and abs(four - 4 * one) <= 0.02
    assert cost_of(t5, phase.dataset_id, sim=True, metrics=1).estimate > one


def test_an_essay_with_similarity_weights_goes_to_the_large_queue(phase, small_texts, settings):
    """Normal-size long lines with similarity weights: minutes of forward passes, so they
    leave the default queue to the one-second uploads; without weights they stay."""
    lines = small_texts["source"].splitlines()
    essay = "".join(" ".join(["word"] * 300) + "\n" for _ in lines).encode()
    settings.GEC_LARGE_FILE_RATIO = 1000  # the size rule out of the way: the estimate decides
    assert cost_of(essay, phase.dataset_id, sim=True).queue == "scoring-large"
    assert cost_of(essay, phase.dataset_id, sim=False).queue is None
    assert cost_of(small_texts["T5"].encode(), phase.dataset_id, sim=True).queue is None
    settings.GEC_HEAVY_JOB_SECONDS = 10_000
    assert cost_of(essay, phase.dataset_id, sim=True).queue is None


def test_tie_groups_go_to_the_boards_queue_when_set(settings, monkeypatch):
    """docker/compose.yaml sets GEC_TIE_GROUPS_QUEUE=boards; empty, the default queue."""
    from leaderboard import queue as jobs
    from leaderboard.services.boards.ties import refresh_tie_groups

    sent = []
    monkeypatch.setattr(jobs.celery_app, "send_task", lambda *args, **kwargs: sent.append((args, kwargs)))
    settings.GEC_TASK_MODE = "celery"
    settings.GEC_TIE_GROUPS_QUEUE = "boards"
    refresh_tie_groups.enqueue(7, "errant.cs.f", "open")
    settings.GEC_TIE_GROUPS_QUEUE = ""
    refresh_tie_groups.enqueue(7, "errant.cs.f", "")
    assert sent == [
        (("leaderboard.tasks.refresh_tie_groups", (7, "errant.cs.f", "open")), {"queue": "boards"}),
        (("leaderboard.tasks.refresh_tie_groups", (7, "errant.cs.f", "")), {}),
    ]
