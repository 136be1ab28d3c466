from invoicer.totals import subtotal, tax, total_with_tax


def test_subtotal():
    assert subtotal([(2, 10.0), (1, 5.5)]) == 25.5


def test_reduced_tax():
    assert tax(100, "reduced") == 5.0


def test_total_with_tax():
    assert total_with_tax([(1, 100.0)]) == 120.0
