import pathlib, sys

from asi_agent.eval.verifying import check, run, text

check(pathlib.Path("tests/test_pricing.py").exists(), "no test file")
check("HALF" in text("tests/test_pricing.py"), "HALF not tested")
r = run(sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
check(r.returncode == 0, r.stderr[-800:])
