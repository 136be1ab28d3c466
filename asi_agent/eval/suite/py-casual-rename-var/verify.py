import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from cart import cart_total

check("tmp" not in text("cart.py"), "tmp is still there")
check("total = sum(prices)" in text("cart.py"), "no variable total")
check(cart_total([1, 2, 3]) == 6, "cart_total broken")
