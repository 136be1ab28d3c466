function parseQuery(qs) {
  return Object.fromEntries(new URLSearchParams(qs));
}
module.exports = { parseQuery };
