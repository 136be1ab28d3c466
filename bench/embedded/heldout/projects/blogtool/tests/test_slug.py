from blogtool.slug import slugify


def test_simple_title():
    assert slugify("Hello World") == "hello-world"


def test_punctuation_is_dropped():
    assert slugify("Rust & Python: 2026 notes!") == "rust-python-2026-notes"


def test_single_word():
    assert slugify("Intro") == "intro"
