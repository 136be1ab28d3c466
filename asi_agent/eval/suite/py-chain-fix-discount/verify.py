import sys

from asi_agent.eval.verifying import check, run

r = run(sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
check(r.returncode == 0, r.stderr[-800:])
