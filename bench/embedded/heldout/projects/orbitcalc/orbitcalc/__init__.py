"""orbitcalc: back-of-the-envelope orbital mechanics."""

__version__ = "1.3.0"
