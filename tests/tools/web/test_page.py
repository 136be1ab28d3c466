"""Which URLs `web_fetch` reads raw, and what it keeps of a page."""

from __future__ import annotations

import pytest

from asi_agent.tools.web.page import page_text, raw_url


@pytest.mark.parametrize(
    ("url", "raw"),
    [
        ("https://github.com/org/repo/blob/main/src/app.py#L10",
         "https://raw.githubusercontent.com/org/repo/main/src/app.py"),
        ("https://github.com/org/repo/blob/v1.2/docs/a%20b.md", "https://raw.githubusercontent.com/org/repo/v1.2/docs/a%20b.md"),
        ("https://gitlab.example.org/g/sub/proj/-/blob/dev/README.md",
         "https://gitlab.example.org/g/sub/proj/-/raw/dev/README.md"),
        ("https://github.com/org/repo", "https://github.com/org/repo"),
        ("https://example.com/blob/file", "https://example.com/blob/file"),
    ],
)  # fmt: skip
def test_file_pages_of_forges_become_raw_links(url: str, raw: str) -> None:
    assert raw_url(url) == raw


def test_plain_text_is_kept_and_html_without_a_type_is_still_converted() -> None:
    assert page_text("  a <b>literal</b>\n", "text/plain") == ("", "a <b>literal</b>")
    title, text = page_text("<!DOCTYPE html><title>T</title><p>one</p><p>two</p>", "")
    assert (title, text) == ("T", "one\n\ntwo")
