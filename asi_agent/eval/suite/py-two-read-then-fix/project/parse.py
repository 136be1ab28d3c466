def parse_int(text):
    return int(text) + 1
