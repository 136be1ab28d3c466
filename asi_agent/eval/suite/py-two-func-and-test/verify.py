import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from mathx import double, half

check(double(4) == 8 and half(4) == 2, "double wrong or half broken")
check("double(" in text("test_mathx.py") and "def test_" in text("test_mathx.py"), "no test of double")
