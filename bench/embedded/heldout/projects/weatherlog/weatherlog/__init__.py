"""weatherlog: record and summarise temperature readings."""

__version__ = "0.4.2"
