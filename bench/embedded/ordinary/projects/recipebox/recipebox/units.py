"""Conversions between kitchen units."""

GRAMS_PER_OUNCE = 28.35
ML_PER_CUP = 240


def ounces_to_grams(ounces):
    return round(ounces * GRAMS_PER_OUNCE, 1)


def grams_to_ounces(grams):
    return round(grams / GRAMS_PER_OUNCE, 2)
