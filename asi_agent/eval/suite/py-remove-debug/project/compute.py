def compute(x):
    y = x * 2
    print('DEBUG y =', y)
    print('DEBUG x =', x)
    return y + 1
