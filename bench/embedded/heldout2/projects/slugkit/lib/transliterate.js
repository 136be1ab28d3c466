'use strict';

const MAP = {
  'ä': 'ae', 'ö': 'oe', 'ü': 'ue', 'ß': 'ss',
  'à': 'a', 'á': 'a', 'â': 'a', 'å': 'a',
  'é': 'e', 'è': 'e', 'ê': 'e',
  'î': 'i', 'ô': 'o', 'ø': 'o', 'û': 'u',
  'ç': 'c', 'ñ': 'n',
};

function transliterate(text) {
  return text.replace(/[^\u0000-\u007f]/g, (ch) => MAP[ch] ?? MAP[ch.toLowerCase()] ?? '');
}

module.exports = { transliterate };
