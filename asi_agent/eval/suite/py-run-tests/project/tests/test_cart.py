import unittest

from shop.cart import Cart


class CartTest(unittest.TestCase):
    def test_total_without_code(self):
        cart = Cart()
        cart.add("pen", 2.5, 4)
        self.assertEqual(cart.total(), 10.0)

    def test_total_with_save10(self):
        cart = Cart()
        cart.add("book", 20.0)
        self.assertEqual(cart.total("SAVE10"), 18.0)
