RATE = 0.19


def compute_tax(amount):
    return amount * RATE
