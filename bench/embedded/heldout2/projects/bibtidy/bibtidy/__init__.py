"""bibtidy - keep BibTeX entries tidy."""
from .authors import format_author, split_authors
from .keys import make_key

__version__ = "0.4.2"
__all__ = ["format_author", "split_authors", "make_key"]
