"""A fetched page as text for the model: HTML turned to Markdown (`markdownify` over BeautifulSoup), the
page's chrome (scripts, styles, navigation, footers) left out, its links and images made absolute against
the address the page came from (after redirects; a `<base href>` of the page counts); other text as it is.

`markdownify` (MIT) was chosen over `html2text` (GPL-3.0, a little faster): on the rustdoc pages, the Rust
book's README and a release-notes page it kept headings, lists, links and code blocks alike, in ~0.2 s for
a 50 kB page. The main-content extractors (trafilatura, readability) pull lxml for little more here.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

__all__ = ["GITHUB_RAW", "page_text", "raw_url"]

GITHUB_RAW = "raw.githubusercontent.com"
_CHROME = ("head", "title", "script", "style", "noscript", "template", "svg", "iframe", "nav", "footer")
_BLANKS = re.compile(r"\n{3,}")
_GITHUB_BLOB = re.compile(r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)/blob/(?P<rest>.+)$")
_FORGE_BLOB = re.compile(r"^(?P<head>/.+?/-)/blob/(?P<rest>.+)$")
_LINKS = (("a", "href"), ("img", "src"))


def raw_url(url: str) -> str:
    """The raw file behind a forge's file page: GitHub `…/blob/REF/PATH` →
    `raw.githubusercontent.com/…/REF/PATH`; GitLab-style `…/-/blob/REF/PATH` → `…/-/raw/REF/PATH` on any
    host; every other URL as it is."""
    import httpx  # noqa: PLC0415 - the web tools only

    parsed = httpx.URL(url)
    if parsed.host in ("github.com", "www.github.com") and (match := _GITHUB_BLOB.match(parsed.path)):
        path = f"/{match['owner']}/{match['repo']}/{match['rest']}"
        return str(parsed.copy_with(host=GITHUB_RAW, path=path, query=None, fragment=None))
    if match := _FORGE_BLOB.match(parsed.path):
        return str(parsed.copy_with(path=f"{match['head']}/raw/{match['rest']}", fragment=None))
    return url


def page_text(body: str, content_type: str, base: str | None = None) -> tuple[str, str]:
    """The page's title and its text: Markdown for HTML (links and images absolute against `base`, the
    page's final URL, when it is given), the body itself for anything else."""
    looks_html = body.lstrip()[:200].lower().startswith(("<!doctype", "<html"))
    if "html" not in content_type.lower() and not looks_html:
        return "", body.strip()
    from bs4 import BeautifulSoup  # noqa: PLC0415 - only pages pay for the parser
    from markdownify import markdownify  # noqa: PLC0415

    soup = BeautifulSoup(body, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    if base is not None:
        _absolute_links(soup, base)
    for tag in soup(_CHROME):
        tag.decompose()
    node = soup.find("main") or soup.find("article") or soup.body or soup
    text = markdownify(str(node), heading_style="ATX", bullets="-")
    lines = "\n".join(line.rstrip() for line in text.splitlines())
    return title, _BLANKS.sub("\n\n", lines).strip()


def _absolute_links(soup: Any, base: str) -> None:
    """Make the page's links and images absolute: against its `<base href>` (itself taken against `base`)
    when it has one, else against `base`; absolute ones (`https:`, `mailto:`) stay as they are."""
    declared = soup.find("base", href=True)
    if declared is not None:
        base = urljoin(base, str(declared["href"]).strip())
    for name, attribute in _LINKS:
        for tag in soup.find_all(name, attrs={attribute: True}):
            value = str(tag[attribute]).strip()
            if value:
                tag[attribute] = urljoin(base, value)
