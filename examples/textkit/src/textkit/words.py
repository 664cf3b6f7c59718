"""Counting words."""

import functools


def word_count(text):
    """The number of whitespace-separated words in text."""
    return len(text.split())


class Counter:
    """Counts words over several texts."""

    ignore_case = True

    def __init__(self):
        self.counts = {}

    def add(self, text):
        for word in text.split():
            key = word.lower() if self.ignore_case else word
            self.counts[key] = self.counts.get(key, 0) + 1

    @property
    def total(self):
        return sum(self.counts.values())

    @functools.lru_cache(maxsize=None)
    def most_common(self):
        return max(self.counts, key=self.counts.get) if self.counts else None
