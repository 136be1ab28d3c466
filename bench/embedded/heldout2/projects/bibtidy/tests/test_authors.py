from bibtidy.authors import format_author, short_author_list, split_authors


def test_split_authors():
    assert split_authors("Ada Lovelace and Charles Babbage") == [
        "Ada Lovelace",
        "Charles Babbage",
    ]


def test_format_author():
    assert format_author("Ada Lovelace") == "Lovelace, Ada"
    assert format_author("Lovelace, Ada") == "Lovelace, Ada"


def test_short_author_list():
    assert short_author_list("A One and B Two and C Three and D Four") == "One et al."
    assert short_author_list("A One and B Two") == "One, Two"
