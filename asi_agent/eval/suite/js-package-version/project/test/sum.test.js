const test = require('node:test');
const assert = require('node:assert');
const { sum } = require('../src/sum.js');

test('sums all values', () => {
  assert.strictEqual(sum([1, 2, 3]), 6);
});
