def clean(raw):
    """Strip hyphens and spaces, upper-case a trailing x."""
    return raw.replace("-", "").replace(" ", "").upper()


def isbn10_check_digit(first9):
    total = sum((10 - i) * int(d) for i, d in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def isbn13_check_digit(first12):
    total = sum((3 if i % 2 else 1) * int(d) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def is_valid(raw):
    s = clean(raw)
    if len(s) == 10 and s[:9].isdigit():
        return isbn10_check_digit(s[:9]) == s[9]
    if len(s) == 13 and s.isdigit():
        return isbn13_check_digit(s[:12]) == s[12]
    return False
