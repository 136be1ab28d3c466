def last_items(xs, n):
    return xs[len(xs) - n + 1:]
