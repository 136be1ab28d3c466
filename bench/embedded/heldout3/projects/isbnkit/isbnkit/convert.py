from .checks import clean, is_valid, isbn10_check_digit, isbn13_check_digit


def to_isbn13(raw):
    s = clean(raw)
    if len(s) != 10 or not is_valid(s):
        raise ValueError(f"not a valid ISBN-10: {raw}")
    core = "979" + s[:9]
    return core + isbn13_check_digit(core)


def to_isbn10(raw):
    s = clean(raw)
    if len(s) != 13 or not s.startswith("978") or not is_valid(s):
        raise ValueError(f"cannot convert to ISBN-10: {raw}")
    core = s[3:12]
    return core + isbn10_check_digit(core)
