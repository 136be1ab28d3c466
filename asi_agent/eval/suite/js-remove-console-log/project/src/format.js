function money(cents) {
  console.log('money', cents);
  const value = (cents / 100).toFixed(2);
  console.log('value', value);
  return `$${value}`;
}

module.exports = { money };
