'use strict';

const assert = require('assert');
const { slugify, uniqueSlug } = require('./index');

assert.strictEqual(slugify('Hello World'), 'hello-world');
assert.strictEqual(slugify('Crème brûlée à la carte'), 'creme-brulee-a-la-carte');
assert.strictEqual(slugify('  Über   Straße  '), 'ueber-strasse');
assert.strictEqual(slugify(''), '');
assert.strictEqual(slugify('a'.repeat(100)).length, 64);
assert.strictEqual(slugify('Hello World', { separator: '_' }), 'hello_world');
assert.strictEqual(uniqueSlug('Hello World', new Set(['hello-world'])), 'hello-world-2');

console.log('all tests passed');
