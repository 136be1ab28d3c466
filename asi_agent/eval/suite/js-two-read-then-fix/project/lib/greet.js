function greet(name) {
  return 'Bye, ' + name;
}

module.exports = { greet };
