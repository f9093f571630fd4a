"""The offline UPOS taggers outside spaCy: Icelandic from BÍN through
islenska, German from HanTa, Czech from word lists and simplemma's dictionary. Every tag is a universal POS tag, a
word no dictionary
knows falls back to X (read as untagged), the tags make the types ERRANT's POS classes,
and a long word costs a bounded time."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, pipeline_signature
from scoring.pipelines import get_pipeline
from scoring.pipelines.czech import LEMMA_UPOS, WORD_UPOS
from scoring.pipelines.hanta import LONGEST_WORD, STTS_UPOS, bounded
from scoring.pipelines.hanta import upos_of as stts_upos
from scoring.pipelines.islenska import CLASS_ORDER, OFL_UPOS
from scoring.pipelines.shapes import shape_upos

UPOS = {
    "ADJ",
    "ADP",
    "ADV",
    "AUX",
    "CCONJ",
    "DET",
    "INTJ",
    "NOUN",
    "NUM",
    "PART",
    "PRON",
    "PROPN",
    "PUNCT",
    "SCONJ",
    "SYM",
    "VERB",
    "X",
}
SETTINGS = settings(max_examples=60, deadline=None)
any_word = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=40)


def tags(lang, words):
    return get_pipeline(lang, "lemmas").sentence_tagger(words)


def test_the_mappings_give_universal_tags_only():
    assert set(OFL_UPOS.values()) <= UPOS and set(STTS_UPOS.values()) <= UPOS
    assert set(WORD_UPOS.values()) <= UPOS and set(LEMMA_UPOS.values()) <= UPOS
    assert set(CLASS_ORDER) == set(OFL_UPOS)  # every BÍN class has a rank


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("Ég fór í skólann í gær .", ["PRON", "VERB", "ADP", "NOUN", "ADP", "ADV", "PUNCT"]),
        ("Hún var falleg og góð", ["PRON", "VERB", "ADJ", "CCONJ", "ADJ"]),
        ("Jón býr á Íslandi", ["PROPN", "VERB", "ADP", "PROPN"]),
        ("Þetta er bók sem þarf að lesa", ["DET", "VERB", "NOUN", "SCONJ", "VERB", "PART", "VERB"]),
        ("Ég keypti 1990 xyzqwv", ["PRON", "VERB", "NUM", "X"]),
    ],
)
def test_icelandic_words_get_their_usual_class(words, expected):
    assert tags("is", words.split()) == expected


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("Er hat gestern nicht gekommen .", ["PRON", "VERB", "ADV", "PART", "VERB", "PUNCT"]),
        ("Ich habe einen Hund und eine Katze", ["PRON", "VERB", "DET", "NOUN", "CCONJ", "DET", "NOUN"]),
        ("Er sagt , dass er darauf wartet", ["PRON", "VERB", "PUNCT", "SCONJ", "PRON", "ADV", "VERB"]),
    ],
)
def test_german_sentences_are_tagged_in_context(words, expected):
    assert tags("de", words.split()) == expected


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (
            "Včera jsem šel do školy s kamarádem , který bydlí v Praze .",
            ["ADV", "VERB", "VERB", "ADP", "NOUN", "ADP", "NOUN", "PUNCT", "DET", "VERB", "ADP", "PROPN", "PUNCT"],
        ),
        (
            "Krásně jsme si povídali o tom , co uděláme zítra",
            ["ADV", "VERB", "PRON", "VERB", "ADP", "DET", "PUNCT", "PRON", "VERB", "ADV"],
        ),
        # nouns that look like infinitives (plat, svět) have no past participle; nádraží no -ího
        (
            "Plat je nízký a svět krásný , jarní den na nádraží",
            ["NOUN", "VERB", "ADJ", "CCONJ", "NOUN", "ADJ", "PUNCT", "ADJ", "NOUN", "ADP", "NOUN"],
        ),
        ("Uz nevim 2026", ["X", "X", "NUM"]),  # misspelt: untagged
    ],
)
def test_czech_words_get_their_class_from_the_lists_and_the_dictionary(words, expected):
    assert tags("cs", words.split()) == expected


@SETTINGS
@given(st.lists(any_word, min_size=0, max_size=8))
def test_any_words_get_one_universal_tag_each(words):
    for lang in ("is", "de", "cs"):
        found = tags(lang, words)
        assert len(found) == len(words) and set(found) <= UPOS


@SETTINGS
@given(st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=30))
def test_an_icelandic_word_no_dictionary_knows_is_untagged(word):
    """Consonants only: no Icelandic word, no compound; X, which the type rules read as
    untagged (OTHER, never a made-up class)."""
    assert tags("is", [word]) == ["X"]


def test_a_form_outside_any_dictionary_is_typed_by_its_shape():
    assert (
        shape_upos("2026") == "NUM"
        and shape_upos("3,5") == "NUM"
        and shape_upos("«") == "PUNCT"
        and shape_upos("Qzx") == "X"
    )


def test_hanta_tags_a_long_word_by_its_bounded_tail_in_bounded_time():
    word = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen" * 20
    assert len(bounded(word)) == LONGEST_WORD and bounded(word)[0].isupper() and bounded("kurz") == "kurz"
    started = time.process_time()
    assert tags("de", ["Das", "ist", word, "."])[2] in UPOS
    assert time.process_time() - started < 2.0  # unbounded, this word alone takes minutes (quadratic in its length)
    assert stts_upos("VA(FIN)") == "VERB" and stts_upos("ADJ(A)") == "ADJ" and stts_upos("???") == "X"


def test_islenska_reads_a_long_compound_by_its_bounded_tail_in_bounded_time():
    """islenska's compound splitter takes minutes on a 460-letter chain of word parts."""
    started = time.process_time()
    found = tags("is", ["Aðalbílaskúrshurðarhúnn" * 20, "landsmanna" * 200 + "hús", "aðalbílaskúrshurðarhúnn"])
    assert time.process_time() - started < 2.0
    assert set(found) <= UPOS and found[2] == "NOUN"  # a real compound of 23 letters is analysed whole


@pytest.mark.parametrize(
    ("lang", "source", "correction", "expected"),
    [
        ("is", "Ég fór á skólann .", "Ég fór í skólann .", [("á", "í", "R:ADP")]),
        ("is", "Hún er falleg .", "Hún var falleg .", [("er", "var", "R:MORPH")]),
        ("is", "Ég hlakka til þess að fara .", "Ég hlakka til að fara .", [("þess", "", "U:PRON")]),
        ("de", "Er hat gestern nicht gekommen .", "Er ist gestern nicht gekommen .", [("hat", "ist", "R:VERB")]),
        (
            "cs",
            "Uz nevim co rict .",
            "Už nevím , co říct .",
            [("Uz", "Už", "R:ADV"), ("nevim", "nevím", "R:SPELL"), ("", ",", "M:PUNCT"), ("rict", "říct", "R:VERB")],
        ),
    ],
)
def test_the_tags_give_errant_pos_classes(lang, source, correction, expected):
    dataset = Dataset.from_text([source], [[correction]], lang=lang, pipeline="lemmas")
    words = source.split()
    assert [
        (" ".join(words[e.start : e.end]), e.correction, e.type) for e in dataset.references[0].edits[0]
    ] == expected


def test_signatures_name_the_tagger_and_its_data():
    assert "|upos:islenska-2.1.0+bin-5.0.0|lang:is|pipeline:lemmas|" in pipeline_signature("is", "lemmas")
    assert "|upos:hanta-1.2.1+morphmodel_ger.pgz|lang:de|pipeline:lemmas|" in pipeline_signature("de", "lemmas")
    assert "|upos:czech-rules-1+simplemma-2.0.0|lang:cs|pipeline:lemmas|" in pipeline_signature("cs", "lemmas")
    assert "upos:" not in pipeline_signature("is", "tokens")
