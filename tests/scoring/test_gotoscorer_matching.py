"""A system's (modified, correct) on each gold chunk, with GTS's comparison rules."""

from scoring.errant.edits import Edit
from scoring.gotoscorer import judge_sentence, sentence_chunks

TOKENS = "We discussing about its .".split()
GOLD_EDITS = [Edit(1, 1, "have been", "M:VERB"), Edit(2, 3, "", "U:PREP"), Edit(3, 4, "it", "R:PRON")]


def outcomes(system_edits, gold_edits=GOLD_EDITS):
    gold = sentence_chunks(TOKENS, gold_edits)
    judged = judge_sentence(gold, sentence_chunks(TOKENS, system_edits))
    return {(g.start, g.end, g.correction): outcome for g, outcome in zip(gold, judged)}


def test_same_span_and_correction_is_correct():
    got = outcomes(GOLD_EDITS)
    assert all(correct for _, correct in got.values())
    assert got[1, 1, "have been"] == (True, True)
    assert got[0, 1, "We"] == (False, True)


def test_other_correction_at_the_same_span_is_a_wrong_change():
    assert outcomes([Edit(3, 4, "them", "R:PRON")])[3, 4, "it"] == (True, False)


def test_untouched_gold_edit_is_missed():
    assert outcomes([])[3, 4, "it"] == (False, False)
    assert outcomes([])[1, 1, "have been"] == (False, False)


def test_overlapping_edit_ors_modified_into_a_wrong_outcome():
    got = outcomes([Edit(1, 3, "talking", "R:OTHER")])
    assert got[1, 2, "discussing"] == (True, False)
    assert got[2, 3, ""] == (True, False)


def test_gold_slot_only_meets_a_chunk_at_the_same_slot():
    """GTS's insertion-slot exception: a gold slot inside a system edit gets no record,
    so it counts as left alone and correct (a TN), although the system rewrote around it."""
    got = outcomes([Edit(1, 3, "talking", "R:OTHER")], gold_edits=[])
    assert got[2, 2, ""] == (False, True)


def test_system_insertion_at_a_gold_slot_is_a_wrong_change():
    assert outcomes([Edit(0, 0, '"', "M:PUNCT")])[0, 0, ""] == (True, False)


def test_equal_chunk_overrides_an_earlier_not_equal_one():
    """The system's slot (1, 1) is scanned before its token (1, 2): not equal, then equal."""
    assert outcomes([], gold_edits=[])[1, 2, "discussing"] == (False, True)


def test_unedited_bits_equal_judging_the_unedited_chunks():
    """The shortcut for a sentence the system leaves alone gives judge_sentence's bits,
    including gold edits that rewrite a token into itself or insert nothing."""
    from scoring.gotoscorer.outcomes import bits, unedited_bits

    gold_lists = [
        GOLD_EDITS,
        [],
        [Edit(0, 1, "We", "R:OTHER")],
        [Edit(2, 2, "", "M:OTHER")],
        [Edit(0, 5, "", "U:OTHER")],
        [Edit(5, 5, "!", "M:PUNCT")],
    ]
    for tokens in (TOKENS, []):
        for gold_edits in gold_lists if tokens else [[], [Edit(0, 0, "Hi", "M:OTHER")]]:
            gold = sentence_chunks(tokens, gold_edits)
            judged = judge_sentence(gold, sentence_chunks(tokens, []))
            assert unedited_bits(gold, tokens) == (bits(m for m, _ in judged), bits(c for _, c in judged))
    from scoring.gotoscorer import Chunk

    assert unedited_bits([Chunk(7, 8, "", "x", "R:OTHER", True)], TOKENS) is None
