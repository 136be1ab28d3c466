from isbnkit import clean, is_valid


def test_clean_strips_separators():
    assert clean("0-306-40615 2") == "0306406152"


def test_valid_isbn10():
    assert is_valid("0-306-40615-2")


def test_valid_isbn10_with_x():
    assert is_valid("0-8044-2957-X")


def test_valid_isbn13():
    assert is_valid("978-0-306-40615-7")


def test_rejects_bad_check_digit():
    assert not is_valid("978-0-306-40615-8")
