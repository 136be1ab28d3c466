RED = '#f00'
