"""isbnkit: small helpers for ISBN-10 and ISBN-13 numbers."""

from .checks import clean, is_valid, isbn10_check_digit, isbn13_check_digit
from .convert import to_isbn10, to_isbn13

__version__ = "2.0.3"

__all__ = [
    "clean",
    "is_valid",
    "isbn10_check_digit",
    "isbn13_check_digit",
    "to_isbn10",
    "to_isbn13",
]
