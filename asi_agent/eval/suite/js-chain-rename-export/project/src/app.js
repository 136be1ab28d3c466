const { getUser } = require('./users');

console.log(getUser(7).name);
