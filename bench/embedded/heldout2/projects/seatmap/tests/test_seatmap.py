import pytest

from seatmap import is_aisle_seat, parse_seat, seat_labels


def test_parse_seat():
    assert parse_seat("c7") == ("C", 7)


def test_parse_seat_rejects_unknown():
    with pytest.raises(ValueError):
        parse_seat("J3")
    with pytest.raises(ValueError):
        parse_seat("A13")


def test_aisle_seats():
    assert is_aisle_seat("B1")
    assert is_aisle_seat("B12")
    assert not is_aisle_seat("B3")


def test_seat_labels_full_row():
    labels = seat_labels("C")
    assert labels[0] == "C1"
    assert labels[-1] == "C12"
    assert len(labels) == 12
