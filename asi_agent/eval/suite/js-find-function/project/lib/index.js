const { parseQuery } = require('./url');
module.exports = { parseQuery };
