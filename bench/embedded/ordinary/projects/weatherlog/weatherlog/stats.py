"""Small helpers for summarising readings."""


def mean(values):
    return sum(values) / len(values)


def spread(values):
    return max(values) - min(values)


def celsius_to_fahrenheit(celsius):
    return celsius * 9 / 5 + 32


def gauge_area(radius_cm):
    """Opening area of a round rain gauge, in square centimetres."""
    return 3.14 * radius_cm**2
