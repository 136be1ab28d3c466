"""Loans and late fees for the Kastanienallee neighbourhood library."""
from datetime import date, timedelta

LOAN_DAYS = 21
FEE_PER_DAY_CENTS = 25
MAX_FEE_CENTS = 1000


def due_date(borrowed: date) -> date:
    return borrowed + timedelta(days=LOAN_DAYS)


def is_overdue(borrowed: date, today: date) -> bool:
    return today < due_date(borrowed)


def days_late(borrowed: date, returned: date) -> int:
    return max(0, (returned - due_date(borrowed)).days)


def late_fee_cents(borrowed: date, returned: date) -> int:
    return min(days_late(borrowed, returned) * FEE_PER_DAY_CENTS, MAX_FEE_CENTS)
