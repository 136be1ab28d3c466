import sys

from asi_agent.eval.verifying import check, run

sys.path.insert(0, ".")
from shop.cart import Cart
c = Cart()
c.add("a", 1.0, 2)
c.add("b", 1.0, 3)
check(c.count() == 5, "count() wrong")
r = run(sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
check(r.returncode == 0, r.stderr[-800:])
