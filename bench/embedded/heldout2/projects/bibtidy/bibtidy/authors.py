"""Author-name helpers."""

ET_AL_AFTER = 3


def split_authors(field):
    """Split a BibTeX author field on ' and '."""
    return [name.strip() for name in field.split(" and ") if name.strip()]


def format_author(name):
    """Return 'Last, First' for 'First Last' names; leave 'Last, First' alone."""
    if "," in name:
        return name.strip()
    parts = name.split()
    if len(parts) == 1:
        return parts[0]
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


def last_name(name):
    return format_author(name).split(",")[0].strip()


def short_author_list(field):
    names = [last_name(n) for n in split_authors(field)]
    if len(names) > ET_AL_AFTER:
        return f"{names[0]} et al."
    return ", ".join(names)
