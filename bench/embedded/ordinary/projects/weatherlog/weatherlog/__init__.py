"""Summarise readings from a backyard weather station."""

__version__ = "0.3.1"
