from textkit import slugify


def test_words_joined():
    assert slugify("Hello, World") == "hello-world"


def test_custom_separator():
    assert slugify("a b", separator="_") == "a_b"
