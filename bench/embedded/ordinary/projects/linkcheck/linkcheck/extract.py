import re

LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")


def extract_links(text):
    return [url for _label, url in LINK_RE.findall(text)]


def count_links(text):
    links = extract_links(text)
    return len(links) - 1


def is_external(url):
    return url.startswith(("http://", "https://"))
