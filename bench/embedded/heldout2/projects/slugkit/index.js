'use strict';

const { transliterate } = require('./lib/transliterate');

const DEFAULT_SEPARATOR = '-';
const DEFAULT_MAX_LENGTH = 64;

function slugify(text, options = {}) {
  const separator = options.separator || DEFAULT_SEPARATOR;
  const maxLength = options.maxLength || DEFAULT_MAX_LENGTH;
  if (!text) return '';
  let slug = transliterate(String(text))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^${separator}+|${separator}+$`, 'g'), '');
  if (slug.length > maxLength) {
    slug = slug.slice(0, maxLength).replace(new RegExp(`${separator}+$`), '');
  }
  return slug;
}

function uniqueSlug(text, taken, options = {}) {
  const base = slugify(text, options);
  const separator = options.separator || DEFAULT_SEPARATOR;
  let candidate = base;
  let n = 2;
  while (taken.has(candidate)) {
    candidate = `${base}${separator}${n}`;
    n += 1;
  }
  return candidate;
}

module.exports = { slugify, uniqueSlug };
