"""URL slugs for post titles."""

import re


def slugify(title):
    """Turn a post title into a URL slug: lowercase words joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "_".join(words)
