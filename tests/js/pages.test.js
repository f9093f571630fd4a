// Unit tests of static/leaderboard/pages.js's pure parts (node --test tests/js/).
const test = require("node:test");
const assert = require("node:assert/strict");
const pages = require("../../static/leaderboard/pages.js");

test("a countdown in days, hours, minutes and seconds", () => {
  assert.equal(pages.countdown(2 * 86400 + 3 * 3600 + 4 * 60 + 5.7), "(in 2 d 3 h 4 min 5 s)");
  assert.equal(pages.countdown(65), "(in 1 min 5 s)");
  assert.equal(pages.countdown(0), "(now: reload the page)");
});

test("a phase key starting with test hides its results by default", () => {
  assert.equal(pages.defaultVisibility("test"), "organizers");
  assert.equal(pages.defaultVisibility("dev"), "public");
});

test("live options come from data-* attributes and a json_script block", () => {
  const since = {textContent: '" v12\\n"'};
  const doc = {getElementById: (id) => (id === "own-since" ? since : null)};
  const box = {dataset: {liveFragment: "/rows/", liveVersion: "/v/", liveSince: "own-since", liveTrim: "1", liveAtMost: "5000"}};
  assert.deepEqual(pages.followOptions(box, doc), {fragment: "/rows/", version: "/v/", atMost: 5000, since: "v12"});
  assert.deepEqual(pages.followOptions({dataset: {liveFragment: "/f/", livePending: "[data-pending='1']"}}, doc),
    {fragment: "/f/", pending: "[data-pending='1']"});
});
