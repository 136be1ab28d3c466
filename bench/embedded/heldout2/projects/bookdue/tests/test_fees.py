from datetime import date

from fees import days_late, due_date, is_overdue, late_fee_cents

BORROWED = date(2026, 3, 1)


def test_due_date():
    assert due_date(BORROWED) == date(2026, 3, 22)


def test_days_late():
    assert days_late(BORROWED, date(2026, 3, 20)) == 0
    assert days_late(BORROWED, date(2026, 3, 26)) == 4


def test_small_fee():
    assert late_fee_cents(BORROWED, date(2026, 3, 26)) == 100


def test_fee_is_capped():
    assert late_fee_cents(BORROWED, date(2026, 6, 30)) == 1000


def test_is_overdue():
    assert is_overdue(BORROWED, date(2026, 4, 1))
    assert not is_overdue(BORROWED, date(2026, 3, 10))
