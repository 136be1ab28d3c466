import pytest

from isbnkit import to_isbn10, to_isbn13


def test_to_isbn13():
    assert to_isbn13("0-306-40615-2") == "9780306406157"


def test_to_isbn10():
    assert to_isbn10("9780306406157") == "0306406152"


def test_to_isbn10_rejects_979():
    with pytest.raises(ValueError):
        to_isbn10("9791234567896")
