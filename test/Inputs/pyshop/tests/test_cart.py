from shop.cart import Cart


def test_empty():
    assert Cart().items == []


def test_total():
    cart = Cart()
    cart.add("tea", 10)
    assert cart.total() == 12.0
