from invoicer.numbering import invoice_number


def test_invoice_number():
    assert invoice_number(2026, 42) == "INV-2026-0042"
