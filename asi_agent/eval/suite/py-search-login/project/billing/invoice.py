def make_invoice(order):
    return {'order': order}
