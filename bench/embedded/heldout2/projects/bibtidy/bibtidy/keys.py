"""Citation-key generation."""
import re

from .authors import last_name, split_authors

STOPWORDS = {"a", "an", "the", "on", "of", "for", "and", "in"}


def _first_title_word(title):
    for word in re.findall(r"[A-Za-z]+", title):
        if word.lower() not in STOPWORDS:
            return word.lower()
    return ""


def make_key(entry):
    authors = split_authors(entry.get("author", ""))
    surname = last_name(authors[0]).lower() if authors else "anon"
    surname = re.sub(r"[^a-z]", "", surname)
    return f"{surname}{entry.get('year', '')}{_first_title_word(entry.get('title', ''))}"


def dedupe_keys(keys):
    seen = {}
    out = []
    for key in keys:
        if key in seen:
            seen[key] += 1
            out.append(f"{key}{chr(ord('a') + seen[key] - 1)}")
        else:
            seen[key] = 0
            out.append(key)
    return out
