DISCOUNTS = {"SAVE10": 10, "HALF": 50}


def apply_discount(amount, code=None):
    """The amount after the discount of `code` (a percentage)."""
    percent = DISCOUNTS.get(code, 0)
    return round(amount - amount * percent / 100, 2)
