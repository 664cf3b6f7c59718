"""Small text utilities."""

from textkit.slug import slugify
from textkit.words import Counter, word_count

__all__ = ["Counter", "slugify", "word_count"]
