"""Unit conversions used by the reports."""


def c_to_f(celsius):
    """Convert degrees Celsius to Fahrenheit."""
    return celsius * 9 / 5 + 32


def f_to_c(fahrenheit):
    """Convert degrees Fahrenheit to Celsius."""
    return (fahrenheit - 32) * 5 / 9


def kmh_to_ms(kmh):
    """Convert km/h to metres per second."""
    return kmh / 3.6
