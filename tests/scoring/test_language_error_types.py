"""Error types mean something in every language: operation (M/R/U) and a class from what
the pipeline knows (PUNCT, ORTH, WO, SPELL, MORPH with lemmas, the UPOS with a tagger,
OTHER). The examples are docs/languages.md's, in Czech, Ukrainian, German and Icelandic."""

import pytest

from scoring import Dataset
from scoring.errant.error_types import edit_type

EXAMPLES = [
    # (language, pipeline, source, correction, [(original words, correction, type)])
    (
        "cs",
        "tokens",
        "Jsem rád že jsi přišel",
        "Jsem rád , že jsi přišel .",
        [("", ",", "M:PUNCT"), ("", ".", "M:PUNCT")],
    ),
    ("cs", "tokens", "v praze je krásně .", "V Praze je krásně .", [("v praze", "V Praze", "R:ORTH")]),
    (
        "cs",
        "tokens",
        "Já jsem včera byl doma .",
        "Já byl jsem včera doma .",
        [("jsem včera byl", "byl jsem včera", "R:WO")],
    ),
    (
        "cs",
        "tokens",
        "To je velmi dobry napad .",
        "To je velmi dobrý nápad .",
        [("dobry", "dobrý", "R:SPELL"), ("napad", "nápad", "R:SPELL")],
    ),
    ("cs", "tokens", "Mám dva bratr .", "Mám dva bratry .", [("bratr", "bratry", "R:SPELL")]),
    ("cs", "lemmas", "Mám dva bratr .", "Mám dva bratry .", [("bratr", "bratry", "R:MORPH")]),
    ("cs", "lemmas", "Šel jsem do kino .", "Šel jsem na film .", [("do", "na", "R:ADP"), ("kino", "film", "R:NOUN")]),
    (
        "cs",
        "tokens",
        "Šel jsem do kino .",
        "Šel jsem na film .",
        [("do", "na", "R:OTHER"), ("kino", "film", "R:OTHER")],
    ),
    ("uk", "tokens", "Я дуже люблю читати книжка .", "Я дуже люблю читати книжку .", [("книжка", "книжку", "R:SPELL")]),
    ("uk", "lemmas", "Я дуже люблю читати книжка .", "Я дуже люблю читати книжку .", [("книжка", "книжку", "R:MORPH")]),
    ("uk", "lemmas", "Я живу в києві .", "Я живу в Києві .", [("києві", "Києві", "R:ORTH")]),
    ("uk", "lemmas", "Я не знаю що робити .", "Я не знаю , що робити .", [("", ",", "M:PUNCT")]),
    (
        "uk",
        "lemmas",
        "Вчора ми ходили в парк .",
        "Вчора ми гуляли в парку .",
        [("ходили", "гуляли", "R:VERB"), ("парк", "парку", "R:MORPH")],
    ),
    (
        "uk",
        "lemmas",
        "Він пішов в магазин",
        "Він пішов до магазину .",
        [("в", "до", "R:ADP"), ("магазин", "магазину", "R:MORPH"), ("", ".", "M:PUNCT")],
    ),
    (
        "uk",
        "tokens",
        "Вчора ми ходили в парк .",
        "Вчора ми гуляли в парку .",
        [("ходили", "гуляли", "R:OTHER"), ("парк", "парку", "R:SPELL")],
    ),
    ("de", "tokens", "Ich wohne in berlin .", "Ich wohne in Berlin .", [("berlin", "Berlin", "R:ORTH")]),
    ("de", "tokens", "Heute ich gehe ins Kino .", "Heute gehe ich ins Kino .", [("ich gehe", "gehe ich", "R:WO")]),
    ("de", "tokens", "Das ist ein schönes Hauss .", "Das ist ein schönes Haus .", [("Hauss", "Haus", "R:SPELL")]),
    ("de", "lemmas", "Ich habe ein Hund .", "Ich habe einen Hund .", [("ein", "einen", "R:MORPH")]),
    ("de", "lemmas", "Er hat gestern nicht gekommen .", "Er ist gestern nicht gekommen .", [("hat", "ist", "R:VERB")]),
    ("de", "tokens", "Er hat gestern nicht gekommen .", "Er ist gestern nicht gekommen .", [("hat", "ist", "R:OTHER")]),
    ("de", "tokens", "Ich weiss nicht , ob er kommt ,", "Ich weiss nicht , ob er kommt", [(",", "", "U:PUNCT")]),
    ("is", "lemmas", "Ég fór á skólann .", "Ég fór í skólann .", [("á", "í", "R:ADP")]),
    ("is", "lemmas", "Hún er falleg .", "Hún var falleg .", [("er", "var", "R:MORPH")]),
    ("is", "lemmas", "Ég hlakka til þess að fara .", "Ég hlakka til að fara .", [("þess", "", "U:PRON")]),
    ("is", "tokens", "Ég hlakka til þess að fara .", "Ég hlakka til að fara .", [("þess", "", "U:OTHER")]),
]


@pytest.mark.parametrize(("lang", "pipeline", "source", "correction", "expected"), EXAMPLES)
def test_documented_examples(lang, pipeline, source, correction, expected):
    dataset = Dataset.from_text([source], [[correction]], lang=lang, pipeline=pipeline)
    words = source.split()
    assert [
        (" ".join(words[e.start : e.end]), e.correction, e.type) for e in dataset.references[0].edits[0]
    ] == expected


class Token:
    def __init__(self, text, lemma="", pos=""):
        self.text, self.lower_, self.lemma_, self.pos_ = text, text.lower(), lemma, pos


def test_nothing_corrected_is_unk_as_in_errant():
    assert edit_type([Token("a")], [Token("a")]) == "UNK"
    assert edit_type([], []) == "UNK"


def test_a_case_change_on_the_last_token_is_ignored_as_in_errant():
    """[Doctor -> The doctor] is typed as [ -> The]."""
    assert edit_type([Token("Doctor")], [Token("The"), Token("doctor")]) == "M:OTHER"


def test_a_shared_tag_types_a_one_sided_edit():
    assert edit_type([], [Token("дуже", pos="ADV")]) == "M:ADV"
    assert edit_type([Token("x", pos="X")], []) == "U:OTHER"


def test_english_full_keeps_errant_types():
    dataset = Dataset.from_text(["He go to school ."], [["He goes to school ."]])
    assert dataset.pipeline == "full" and dataset.references[0].edits[0][0].type == "R:VERB:SVA"
