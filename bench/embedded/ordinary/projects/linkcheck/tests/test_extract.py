from linkcheck.extract import count_links, extract_links, is_external

SAMPLE = "See [the docs](https://example.org/docs) and [setup](setup.md)."


def test_extract_links():
    assert extract_links(SAMPLE) == ["https://example.org/docs", "setup.md"]


def test_count_links():
    assert count_links(SAMPLE) == 2


def test_is_external():
    assert is_external("https://example.org")
    assert not is_external("setup.md")
