from bibtidy.keys import dedupe_keys, make_key


def test_make_key_basic():
    entry = {
        "author": "Grace Hopper and Howard Aiken",
        "year": "1952",
        "title": "The Education of a Computer",
    }
    assert make_key(entry) == "hopper1952education"


def test_make_key_without_author():
    assert make_key({"year": "2001", "title": "A Survey"}) == "anon2001survey"


def test_dedupe_keys():
    assert dedupe_keys(["x", "y", "x", "x"]) == ["x", "y", "xa", "xb"]
