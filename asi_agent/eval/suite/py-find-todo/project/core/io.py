def load(p):
    return open(p).read()
