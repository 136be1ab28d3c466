"""Invoice arithmetic."""

from invoicer.rates import TAX_RATES


def subtotal(lines):
    """Sum of quantity * unit price over all invoice lines."""
    return sum(qty * price for qty, price in lines)


def tax(amount, category="standard"):
    """VAT owed on amount for the given category."""
    return round(amount * TAX_RATES[category], 2)


def total_with_tax(lines):
    """Subtotal plus standard-rate VAT."""
    net = subtotal(lines)
    return round(net + net * TAX_RATES["standrad"], 2)
