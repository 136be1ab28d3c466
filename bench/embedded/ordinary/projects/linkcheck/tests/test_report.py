from linkcheck.report import format_report


def test_format_report():
    text = "[a](https://a.example) [b](b.md) [c](http://c.example)"
    assert format_report(text) == "3 links, 2 external"
