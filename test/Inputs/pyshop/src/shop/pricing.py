"""Prices and discounts."""

TAX_RATE = 0.2


def with_tax(amount):
    """Returns the amount with tax."""
    return round(amount * (1 + TAX_RATE), 2)


def discount(amount, percent):
    # Percent off, never below zero.
    return max(amount - amount * percent / 100, 0)
