"""A team's entry in a phase of several corpora is one thing with per-corpus parts: per
corpus, the output the phase's rule picks among the team's outputs for it (latest,
chosen), "best" being the entry with the best macro average; the board row says which
upload each corpus came from."""

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leaderboard.services.submissions import actions
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.standings import EntryOutput, board_rows, entry_snapshots
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
CORPORA = {"cs-natwebinf": (CS_SOURCE, CS_REF), "uk-ua-gec": (UK_SOURCE, UK_REF)}


def make_phase(**fields):
    return corpora_task(
        f"entry-{fields.get('counting', 'latest')}",
        [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()],
        metrics=("errant", "gleu"),
        **fields,
    )


def upload(phase, user, name: str, files: dict[str, list[str]], capture) -> int:
    with capture(execute=True):
        return accept_submission(
            phase,
            user,
            system_name=name,
            filename=f"{name}.zip",
            content=zipped({f"{c}.txt": text(lines) for c, lines in files.items()}),
        ).pk


def team_row(phase) -> dict:
    [row] = [r for r in board_rows(phase.pk, "errant.cs.f") if not r["baseline"]]
    return row


@pytest.mark.django_db
def test_latest_per_corpus_and_a_withdrawal_gives_the_corpus_back(django_capture_on_commit_callbacks):
    phase, user = make_phase(), User.objects.create_user("ana")
    full = upload(
        phase, user, "full", {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks
    )
    uk = upload(phase, user, "uk", {"uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks)
    row = team_row(phase)
    assert (row["submission_id"], row["system_name"], row["corpus_uploads"]) == (
        uk,
        "uk",
        {"cs-natwebinf": full, "uk-ua-gec": uk},
    )
    assert row["value"] == pytest.approx(0.5)
    from leaderboard.models import Submission

    actions.withdraw(Submission.objects.get(pk=uk))
    row = team_row(phase)
    assert (row["submission_id"], row["corpus_uploads"], row["value"]) == (
        full,
        {"cs-natwebinf": full, "uk-ua-gec": full},
        pytest.approx(1.0),
    )


@pytest.mark.django_db
def test_best_is_the_entry_with_the_best_macro_average(django_capture_on_commit_callbacks):
    phase, user = make_phase(counting="best"), User.objects.create_user("bea")
    copy = upload(
        phase, user, "copy", {"cs-natwebinf": CS_SOURCE, "uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks
    )
    uk = upload(
        phase, user, "uk-better", {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks
    )  # its entry: cs from copy, uk perfect
    row = team_row(phase)
    assert (row["submission_id"], row["corpus_uploads"], row["value"]) == (
        uk,
        {"cs-natwebinf": copy, "uk-ua-gec": uk},
        pytest.approx(0.5),
    )
    upload(
        phase, user, "uk-worse", {"uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks
    )  # a worse entry does not count
    assert team_row(phase)["submission_id"] == uk


@pytest.mark.django_db
def test_a_first_upload_of_one_corpus_has_no_macro_average_and_best_falls_back_to_it(
    django_capture_on_commit_callbacks,
):
    phase, user = make_phase(counting="best"), User.objects.create_user("cy")
    uk = upload(phase, user, "uk", {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    row = team_row(phase)
    assert (
        row["submission_id"],
        row["value"],
        row["corpora"]["cs-natwebinf"],
        row["corpus_uploads"]["cs-natwebinf"],
    ) == (uk, None, None, None)


@pytest.mark.django_db
def test_chosen_is_the_entry_as_it_stood_at_the_chosen_upload(django_capture_on_commit_callbacks):
    from leaderboard.models import Submission

    phase, user = make_phase(counting="chosen"), User.objects.create_user("dee")
    full = upload(
        phase, user, "full", {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks
    )
    uk = upload(phase, user, "uk", {"uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks)
    assert team_row(phase)["corpus_uploads"] == {"cs-natwebinf": full, "uk-ua-gec": uk}  # none chosen: the latest
    actions.choose(Submission.objects.get(pk=full))
    later = upload(phase, user, "cs", {"cs-natwebinf": CS_SOURCE}, django_capture_on_commit_callbacks)
    row = team_row(phase)
    assert (row["submission_id"], row["corpus_uploads"]) == (full, {"cs-natwebinf": full, "uk-ua-gec": full})
    actions.choose(Submission.objects.get(pk=uk))
    assert team_row(phase)["corpus_uploads"] == {"cs-natwebinf": full, "uk-ua-gec": uk}  # not the later cs upload
    assert later not in team_row(phase)["corpus_uploads"].values()


@pytest.mark.django_db
def test_a_baseline_is_a_row_of_its_own_and_each_team_one(django_capture_on_commit_callbacks):
    phase = make_phase()
    organizer, user = User.objects.create_user("org"), User.objects.create_user("eve")
    with django_capture_on_commit_callbacks(execute=True):
        base = accept_submission(
            phase,
            organizer,
            system_name="copy",
            filename="c.zip",
            is_baseline=True,
            enforce_limits=False,
            content=zipped({f"{c}.txt": text(s) for c, (s, _) in CORPORA.items()}),
        ).pk
    mine = upload(phase, user, "uk", {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    rows = {r["submission_id"]: r for r in board_rows(phase.pk, "errant.cs.f")}
    assert set(rows) == {base, mine} and rows[base]["rank"] is None and rows[mine]["rank"] == 1


outputs = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 2)), max_size=25)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a shared, loaded machine
@given(outputs)
def test_an_entry_holds_per_corpus_the_teams_latest_output_so_far(rows):
    """Property: upload u's entry maps each corpus c to the largest output id of u's team
    in c among uploads up to u (upload ids here: team * 10 + sequence)."""
    made = [
        EntryOutput(output_id=k, upload_id=team * 10 + seq, corpus_id=c, team_id=team, baseline=False)
        for k, (seq, c, team) in enumerate(rows)
    ]
    snapshots = entry_snapshots(made)
    assert set(snapshots) == {o.upload_id for o in made}
    for upload_id, entry in snapshots.items():
        team = upload_id // 10
        so_far = [o for o in made if o.team_id == team and o.upload_id <= upload_id]
        expected = {}
        for o in sorted(so_far, key=lambda o: (o.upload_id, o.output_id)):
            expected[o.corpus_id] = o.output_id
        assert entry == expected
