from nums import is_even


def test_even():
    assert is_even(4)


def test_odd():
    assert not is_even(3)
