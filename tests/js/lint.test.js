// The static clients' lint (no eslint without new packages: node's own parser and a few
// rules that matter here): each parses, runs in strict mode, and uses nothing the pages'
// Content-Security-Policy forbids (eval, new Function, string timers, inline handlers).
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const {execFileSync} = require("node:child_process");

// The project's clients and the campaigns slice's own (leaderboard/campaigns/static/).
const DIRS = ["../../static/leaderboard", "../../leaderboard/campaigns/static/leaderboard"].map((d) =>
  path.join(__dirname, d),
);
const FILES = DIRS.flatMap((dir) =>
  fs.readdirSync(dir).filter((f) => f.endsWith(".js")).map((f) => path.join(dir, f)),
);
const FORBIDDEN = [
  [/\beval\s*\(/, "eval"],
  [/\bnew\s+Function\s*\(/, "new Function"],
  [/\bset(?:Timeout|Interval)\s*\(\s*["'`]/, "a timer given a string"],
  [/setAttribute\(\s*["']on[a-z]+["']/, "an inline event handler"],
  [/\.innerHTML\s*=\s*[^;]*\+/, "innerHTML built from strings"],
  [/\bvar\s/, "var (const and let only)"],
];

test("there are static clients to check", () => assert.ok(FILES.length >= 6, FILES.join(", ")));

for (const file of FILES) {
  test(`${path.basename(file)} parses, is strict and runs nothing the policy forbids`, () => {
    const source = fs.readFileSync(file, "utf8");
    execFileSync(process.execPath, ["--check", file]);
    assert.match(source, /"use strict";/, "strict mode");
    for (const [pattern, what] of FORBIDDEN) assert.doesNotMatch(source, pattern, what);
  });
}
