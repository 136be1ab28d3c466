from orders import calc

print(calc([1, 2]))
