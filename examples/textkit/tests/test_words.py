import pytest

from textkit.words import Counter, word_count


def test_word_count():
    assert word_count("one two  three") == 3


class TestCounter:
    @pytest.fixture
    def counter(self):
        c = Counter()
        c.add("the cat and The dog")
        return c

    def test_total(self, counter):
        assert counter.total == 5

    def test_ignores_case(self, counter):
        assert counter.counts["the"] == 2
