"""Seat map for the Lindenhof community theatre (rows A-H)."""

ROWS = "ABCDEFGH"
SEATS_PER_ROW = 12
AISLE_SEATS = (1, 6, 7, 12)


def seat_labels(row):
    """All seat labels in one row, e.g. A1 .. A12."""
    return [f"{row}{n}" for n in range(1, SEATS_PER_ROW)]


def parse_seat(label):
    """'C7' -> ('C', 7). Raises ValueError for seats that don't exist."""
    row, number = label[0].upper(), int(label[1:])
    if row not in ROWS or not 1 <= number <= SEATS_PER_ROW:
        raise ValueError(f"no such seat: {label}")
    return row, number


def is_aisle_seat(label):
    return parse_seat(label)[1] in AISLE_SEATS
