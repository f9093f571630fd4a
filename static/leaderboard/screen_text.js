// A screen's texts as an annotator reads them: pure functions, no page (node's unit tests in
// tests/js/ call them; the judging client static/leaderboard/judge.js draws what they return).
//
// Screens keep texts as tokens joined by spaces (the corpus's tokenisation, which the edits
// index). A reader of ratings sees them as the writer wrote them: detokenise() glues
// punctuation, clitics and brackets back to their words. Changes are shown as pieces
// {text, kind}: "ins"/"del" against the source (the ranking screen), or "mark" where any
// output on the screen differs (the rating screen: every output is marked at the same
// places, so the one left uncorrected does not stand out by having no marks).
(function (root) {
  "use strict";
  const CLOSING = /^(?:[.,;:!?%)\]}»”’…]+|\.\.\.|'(?:s|re|ve|ll|d|m|t)|n't)$/i;
  const OPENING = /^[(\[{«„“‘$#¿¡]+$/;

  // For each token, whether a space goes before it (none before the first).
  function spacesBefore(tokens) {
    let quotes = 0;  // straight double quotes open and close in turn
    const spaces = [];
    tokens.forEach(function (token, i) {
      let space = i > 0;
      if (CLOSING.test(token)) space = false;
      if (i > 0 && OPENING.test(tokens[i - 1])) space = false;
      if (token === '"') { if (quotes % 2 === 1) space = false; quotes += 1; }
      else if (i > 0 && tokens[i - 1] === '"' && quotes % 2 === 1) space = false;
      spaces.push(space);
    });
    return spaces;
  }

  function tokensOf(text) { return text.split(" ").filter((t) => t !== ""); }

  function detokenise(text) {
    const tokens = tokensOf(text), spaces = spacesBefore(tokens);
    return tokens.map((t, i) => (spaces[i] ? " " : "") + t).join("");
  }

  // Edits in source order, each starting at or after the previous one's end (overlaps dropped).
  function ordered(edits) {
    let at = 0;
    return edits.slice().sort((a, b) => a.start - b.start || a.end - b.end).filter(function (e) {
      if (e.start < at) return false;
      at = Math.max(at, e.end);
      return true;
    });
  }

  // The output as the source with its edits: [{tokens, kind: "plain" | "del" | "ins"}].
  function againstSource(source, edits) {
    const words = tokensOf(source), pieces = [];
    let at = 0;
    ordered(edits).forEach(function (e) {
      if (e.start > at) pieces.push({tokens: words.slice(at, e.start), kind: "plain"});
      if (e.end > e.start) pieces.push({tokens: words.slice(e.start, e.end), kind: "del", type: e.type});
      if (e.correction) pieces.push({tokens: tokensOf(e.correction), kind: "ins", type: e.type});
      at = Math.max(at, e.end);
    });
    if (at < words.length) pieces.push({tokens: words.slice(at), kind: "plain"});
    return pieces;
  }

  // The spans of the source where any output edits, merged: [[start, end)]. An insertion
  // covers the word after it (the one before it at the end), so that every output has
  // something to mark there.
  function covered(length, e) {
    if (e.end > e.start) return [e.start, e.end];
    if (e.start < length) return [e.start, e.start + 1];
    return e.start > 0 ? [e.start - 1, e.start] : null;
  }
  function changedSpans(length, outputs) {
    const spans = [];
    outputs.forEach(function (o) { o.edits.forEach(function (e) { const span = covered(length, e); if (span) spans.push(span); }); });
    spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const merged = [];
    spans.forEach(function (span) {
      const last = merged[merged.length - 1];
      if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
      else merged.push(span.slice());
    });
    return merged;
  }

  // The words of source[start, end) with the output's edits inside that span applied.
  function applied(words, edits, start, end) {
    const out = [];
    let at = start;
    ordered(edits.filter(function (e) {
      const span = covered(words.length, e);
      return span !== null && span[0] >= start && span[1] <= end;
    })).forEach(function (e) {
      out.push(...words.slice(at, e.start));
      if (e.correction) out.push(...tokensOf(e.correction));
      at = e.end;
    });
    out.push(...words.slice(at, end));
    return out;
  }

  // Each output as [{tokens, kind: "plain" | "mark"}]: a "mark" piece at every span where any
  // output of the screen differs from the source, in every output (an empty one where the
  // output has no words there), so all outputs carry the same number of marks.
  function sharedMarks(source, outputs) {
    const words = tokensOf(source), spans = changedSpans(words.length, outputs);
    return outputs.map(function (output) {
      const pieces = [];
      let at = 0;
      spans.forEach(function ([start, end]) {
        if (start > at) pieces.push({tokens: words.slice(at, start), kind: "plain"});
        pieces.push({tokens: applied(words, output.edits, start, end), kind: "mark"});
        at = end;
      });
      if (at < words.length) pieces.push({tokens: words.slice(at), kind: "plain"});
      return pieces;
    });
  }

  // Pieces as text runs with their spacing: [{text, kind, space}] where space says whether a
  // space goes before the run; detokenised (as written) or with a space between every token.
  function runs(pieces, asWritten) {
    const shown = pieces.filter((p) => p.kind !== "del");
    const tokens = [].concat(...shown.map((p) => p.tokens));
    const spaces = asWritten ? spacesBefore(tokens) : tokens.map((_, i) => i > 0);
    const result = [];
    let k = 0;
    pieces.forEach(function (piece) {
      if (piece.kind === "del") {  // removed words: shown apart, between spaces
        result.push({text: piece.tokens.join(" "), kind: "del", type: piece.type, space: result.length > 0 || k > 0});
        return;
      }
      const n = piece.tokens.length;
      const text = piece.tokens.map((t, i) => (i > 0 && spaces[k + i] ? " " : "") + t).join("");
      result.push({text: text, kind: piece.kind, type: piece.type, space: n > 0 && spaces[k]});  // an empty one: no space of its own
      k += n;
    });
    return result;
  }

  const api = {spacesBefore: spacesBefore, detokenise: detokenise, againstSource: againstSource,
    changedSpans: changedSpans, sharedMarks: sharedMarks, runs: runs};
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.gecText = api;
})(typeof window === "undefined" ? globalThis : window);
