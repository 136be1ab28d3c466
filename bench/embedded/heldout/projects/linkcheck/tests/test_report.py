from linkcheck.report import broken_links, render_text

RESULTS = {
    "https://example.org/": 200,
    "https://example.org/old": 404,
    "https://example.org/slow": None,
}


def test_broken_links():
    assert broken_links(RESULTS) == ["https://example.org/old", "https://example.org/slow"]


def test_render_text_header():
    assert render_text(RESULTS).splitlines()[0] == "checked 3 links, 2 broken"
