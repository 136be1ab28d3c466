"""Invoice numbers look like INV-2026-0042."""


def invoice_number(year, seq):
    return f"INV-{year}-{seq:04d}"
