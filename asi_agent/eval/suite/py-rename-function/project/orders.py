def calc(prices):
    return sum(prices)
