"""Finding posts and working out their URLs."""

from pathlib import Path

from blogtool.slug import slugify


def read_title(path):
    """The first line of a post, without the leading '# '."""
    first = Path(path).read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()


def post_url(path):
    return f"/posts/{slugify(read_title(path))}/"


def all_posts(folder="posts"):
    return sorted(Path(folder).glob("*.md"))
