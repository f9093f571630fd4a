"""The campaign form's phase list: a phase of one corpus is one choice, a phase of several
one choice a corpus (``KIND/CORPUS``), split again into the service's phase and corpus."""

from types import SimpleNamespace

from leaderboard.campaigns.views.campaigns import phase_choices


def phase(kind: str, title: str, corpora: list[str] | None = None):
    children = [SimpleNamespace(corpus=c) for c in corpora or []]
    return SimpleNamespace(
        kind=kind, title=title, is_multi_corpus=bool(corpora), corpora=lambda: children or [SimpleNamespace(corpus="")]
    )


def test_each_corpus_of_a_multi_corpus_phase_is_a_choice():
    phases = [phase("dev", "Development", ["cs-geccc", "uk-ua-gec"]), phase("test", "Test")]
    assert phase_choices(phases) == [
        ("dev/cs-geccc", "Development: cs-geccc"),
        ("dev/uk-ua-gec", "Development: uk-ua-gec"),
        ("test", "Test"),
    ]
    assert "dev/cs-geccc".partition("/")[::2] == ("dev", "cs-geccc")
