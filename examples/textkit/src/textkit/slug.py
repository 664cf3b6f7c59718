"""URL slugs."""

import re

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text, separator="-"):
    """Lowercase words of text joined by separator: "Hello, World" -> "hello-world"."""
    words = _NOT_WORD.split(text.lower())
    return separator.join(w for w in words if w)
