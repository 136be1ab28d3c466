def add_tax(amount):
    return round(amount * 1.2, 2)
