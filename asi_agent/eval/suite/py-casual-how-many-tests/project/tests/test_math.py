def test_add():
    assert 1 + 1 == 2


def test_sub():
    assert 2 - 1 == 1


def test_mul():
    assert 2 * 2 == 4
