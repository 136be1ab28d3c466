import pathlib, sys

from asi_agent.eval.verifying import check, run

check(pathlib.Path("tests/test_cart.py").exists(), "the tests were deleted")
r = run(sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
check(r.returncode == 0, r.stderr[-800:])
