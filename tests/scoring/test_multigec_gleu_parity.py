"""GLEU ``multigec`` equals what the PyPI ``gleu`` 1.1.0 tool prints with ``-d 4 -f -n 4 -t
word`` (its own code run as the oracle): UA-GEC train with two references, one reference,
and hand-written lines in other languages and scripts."""

from decimal import ROUND_HALF_UP, Decimal

import pytest

from scoring import Dataset, ScoringOptions, hypothesis_from_lines, score_systems
from tests.support import needs
from tests.support.multigec_support import SYSTEMS, gleu_tool, ua_gec_lines

MULTIGEC = ScoringOptions(gleu_variant="multigec")


def printed(fraction: float) -> str:
    """The tool's ``round_half_up(100 * f, 4)``."""
    return str(Decimal(str(100 * fraction)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def ours(lang: str, sources, references, hypothesis, pipeline="tokens") -> dict:
    dataset = Dataset.from_text(sources, references, lang=lang, pipeline=pipeline)
    return score_systems(dataset, [hypothesis_from_lines(dataset, hypothesis, "sys")], ["gleu"], MULTIGEC).systems[
        "sys"
    ]["gleu"]


@pytest.fixture(scope="module")
def ua_gec():
    needs.package("ua_gec", "the UA-GEC corpus, CC BY 4.0; requirements-dev.txt pins it")
    return ua_gec_lines("train", 240, "paragraph")


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_two_references(ua_gec, system):
    sources, references, systems = ua_gec
    assert printed(ours("uk", sources, references, systems[system])["score"]) == gleu_tool(
        sources, references, systems[system]
    )


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_one_reference(ua_gec, system):
    sources, references, systems = ua_gec
    assert printed(ours("uk", sources, references[:1], systems[system])["score"]) == gleu_tool(
        sources, references[:1], systems[system]
    )


HAND_WRITTEN = {
    "cs": (
        ["Já jsem byl v škole .", "To je dobre"],
        [["Já jsem byl ve škole .", "To je dobře ."], ["Byl jsem ve škole .", "To je dobře !"]],
        ["Já jsem byl ve škole .", "To je dobre ."],
    ),
    "el": (
        ["Αυτό είναι ενα λάθος .", "Πάω σχολείο"],
        [["Αυτό είναι ένα λάθος .", "Πάω στο σχολείο ."]],
        ["Αυτό είναι ένα λάθος .", "Πάω σχολείο ."],
    ),
    # a non-breaking space: one token for the official tool, two for Python 3's split
    "de": (
        ["Ich habe\u00a0ein Hund .", "Er gehen nach Hause"],
        [["Ich habe einen Hund .", "Er geht nach Hause ."]],
        ["Ich habe\u00a0einen Hund .", "Er geht nach Hause"],
    ),
    # an order with no hypothesis n-gram in the whole corpus: precision 1, not a zero score
    "it": (["Io ha fame", "Ciao"], [["Io ho fame", "Ciao ."]], ["Ho", "Ciao"]),
}


@pytest.mark.parametrize("lang", list(HAND_WRITTEN))
def test_other_languages(lang):
    sources, references, hypothesis = HAND_WRITTEN[lang]
    assert printed(ours(lang, sources, references, hypothesis)["score"]) == gleu_tool(sources, references, hypothesis)


def test_official_variant_differs_where_the_tools_do():
    sources, references, hypothesis = HAND_WRITTEN["it"]
    dataset = Dataset.from_text(sources, references, lang="it", pipeline="tokens")
    official = score_systems(dataset, [hypothesis_from_lines(dataset, hypothesis, "sys")], ["gleu"]).systems["sys"][
        "gleu"
    ]["score"]
    assert official == 0.0 and ours("it", sources, references, hypothesis)["score"] > 0.0


def test_signature_names_the_variant(ua_gec):
    sources, references, systems = ua_gec
    dataset = Dataset.from_text(sources[:5], [r[:5] for r in references], lang="uk", pipeline="tokens")
    result = score_systems(dataset, [hypothesis_from_lines(dataset, systems["odd"][:5], "sys")], ["gleu"], MULTIGEC)
    assert "|variant:multigec" in result.signature and "|tokens:unicode-whitespace" in result.signature
