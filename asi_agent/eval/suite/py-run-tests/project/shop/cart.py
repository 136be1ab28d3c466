from shop.pricing import apply_discount


class Cart:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def total(self, code=None):
        subtotal = sum(price * qty for _, price, qty in self.items)
        return apply_discount(subtotal, code)
