"""Gold and system chunks follow GTS's chunker: edits, single tokens and insertion slots."""

from scoring.errant.edits import Edit
from scoring.gotoscorer import Chunk, sentence_chunks

TOKENS = "A B C".split()


def slot(i):
    return Chunk(i, i, "", "", "", False)


def token(i):
    return Chunk(i, i + 1, TOKENS[i], TOKENS[i], "", False)


def test_unedited_sentence_alternates_slots_and_tokens():
    assert sentence_chunks(TOKENS, []) == [slot(0), token(0), slot(1), token(1), slot(2), token(2), slot(3)]
    assert sentence_chunks(TOKENS, None) == sentence_chunks(TOKENS, [])


def test_insertion_replaces_the_slot_and_the_next_chunk_gets_none():
    insertion = Chunk(1, 1, "", "x", "M:DET", True)
    assert sentence_chunks(TOKENS, [Edit(1, 1, "x", "M:DET")]) == [
        slot(0),
        token(0),
        insertion,
        token(1),
        slot(2),
        token(2),
        slot(3),
    ]


def test_final_insertion_replaces_the_final_slot():
    chunks = sentence_chunks(TOKENS, [Edit(3, 3, "!", "M:PUNCT")])
    assert chunks[-2:] == [token(2), Chunk(3, 3, "", "!", "M:PUNCT", True)]


def test_edit_spans_its_tokens():
    chunks = sentence_chunks(TOKENS, [Edit(0, 2, "D", "R:OTHER")])
    assert chunks == [slot(0), Chunk(0, 2, "A B", "D", "R:OTHER", True), slot(2), token(2), slot(3)]


def test_noop_unk_and_um_edits_are_dropped():
    edits = [Edit(0, 1, "", "Um"), Edit(1, 2, "B", "UNK"), Edit(2, 3, "", "noop")]
    assert sentence_chunks(TOKENS, edits) == sentence_chunks(TOKENS, [])


def test_empty_sentence_is_one_slot():
    """GTS crashes here; one slot keeps every sentence in the corpus vectors."""
    assert sentence_chunks([], []) == [slot(0)]
    assert sentence_chunks([], [Edit(0, 0, "Hi", "M:INTJ")]) == [Chunk(0, 0, "", "Hi", "M:INTJ", True)]
