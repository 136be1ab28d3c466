def cart_total(prices):
    tmp = sum(prices)
    return tmp
