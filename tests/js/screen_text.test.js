// Unit tests of static/leaderboard/screen_text.js (node's own runner: node --test tests/js/).
const test = require("node:test");
const assert = require("node:assert/strict");
const text = require("../../static/leaderboard/screen_text.js");

test("detokenise glues punctuation, clitics, brackets and quotes to their words", () => {
  assert.equal(text.detokenise('He said , " I do n\'t know ( really ) . " It \'s 5 % .'),
    'He said, "I don\'t know (really)." It\'s 5%.');
  assert.equal(text.detokenise("Jag heter Anna ; och du ?"), "Jag heter Anna; och du?");
  assert.equal(text.detokenise(""), "");
});

test("against the source: removed words and corrections in their own pieces", () => {
  const pieces = text.againstSource("I has a apple .", [{start: 1, end: 2, correction: "have"}]);
  assert.deepEqual(pieces.map((p) => [p.kind, p.tokens.join(" ")]),
    [["plain", "I"], ["del", "has"], ["ins", "have"], ["plain", "a apple ."]]);
});

const SOURCE = "I has a apple .";
const OUTPUTS = [
  {key: "A", edits: [{start: 1, end: 2, correction: "have"}, {start: 2, end: 3, correction: "an"}]},
  {key: "B", edits: []},  // the uncorrected text
  {key: "C", edits: [{start: 4, end: 4, correction: "today"}, {start: 3, end: 4, correction: ""}]},
];

test("shared marks: every output is marked at the same places, the uncorrected one too", () => {
  const marked = text.sharedMarks(SOURCE, OUTPUTS);
  const counts = marked.map((pieces) => pieces.filter((p) => p.kind === "mark").length);
  assert.deepEqual(counts, [4, 4, 4]);
  const written = marked.map((pieces) => text.runs(pieces, true).map((r) => (r.space ? " " : "") + r.text).join(""));
  assert.deepEqual(written, ["I have an apple.", "I has a apple.", "I has a today."]);
  // the empty piece where C removed "apple" is still a mark (drawn as a gap)
  assert.equal(text.runs(marked[2], true).filter((r) => r.kind === "mark" && r.text === "").length, 1);
});

test("an insertion covers the word after it, at the end the word before it", () => {
  assert.deepEqual(text.changedSpans(3, [{edits: [{start: 0, end: 0}, {start: 3, end: 3}]}]), [[0, 1], [2, 3]]);
  assert.deepEqual(text.changedSpans(0, [{edits: [{start: 0, end: 0}]}]), []);
});

test("overlapping spans of different outputs merge into one mark", () => {
  const spans = text.changedSpans(5, [{edits: [{start: 1, end: 3}]}, {edits: [{start: 2, end: 4}]}]);
  assert.deepEqual(spans, [[1, 4]]);
});
