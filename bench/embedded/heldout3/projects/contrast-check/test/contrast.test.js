import assert from "node:assert/strict";
import { test } from "node:test";

import { contrastRatio, hexToRgb, meetsAA } from "../src/index.js";

test("short hex expands", () => {
  assert.deepEqual(hexToRgb("#fff"), [255, 255, 255]);
});

test("black on white is 21:1", () => {
  assert.equal(Math.round(contrastRatio("#000000", "#ffffff")), 21);
});

test("light grey on white fails AA", () => {
  assert.equal(meetsAA("#aaaaaa", "#ffffff"), false);
});
