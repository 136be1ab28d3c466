"""Breadth-first crawler that records the status code of every link."""

import urllib.request
from collections import deque
from html.parser import HTMLParser
from urllib.parse import urljoin

MAX_DEPTH = 3
TIMEOUT = 10
USER_AGENT = "linkcheck/0.9 (+https://example.org/linkcheck)"


class _LinkParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            for key, value in attrs:
                if key == "href" and value:
                    self.links.append(value)


def fetch_page(url):
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return response.status, response.read().decode("utf-8", "replace")


def crawl(start_url, max_depth=MAX_DEPTH):
    seen = {start_url}
    queue = deque([(start_url, 0)])
    results = {}
    while queue:
        url, depth = queue.popleft()
        try:
            status, body = fetch_page(url)
        except OSError:
            results[url] = None
            continue
        results[url] = status
        if depth >= max_depth:
            continue
        parser = _LinkParser()
        parser.feed(body)
        for link in parser.links:
            absolute = urljoin(url, link)
            if absolute.startswith("http") and absolute not in seen:
                seen.add(absolute)
                queue.append((absolute, depth + 1))
    return results
