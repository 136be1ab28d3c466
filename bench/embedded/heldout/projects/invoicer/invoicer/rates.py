"""VAT rates by category."""

TAX_RATES = {
    "standard": 0.20,
    "reduced": 0.05,
    "zero": 0.0,
}
