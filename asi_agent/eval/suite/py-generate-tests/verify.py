import pathlib, sys

from asi_agent.eval.verifying import check, run

tests = [p for p in pathlib.Path(".").rglob("test_*.py")]
check(tests, "no test file written")
r = run(sys.executable, "-m", "unittest", "discover", "-s", str(tests[0].parent), "-t", ".")
check(r.returncode == 0 and "Ran " in r.stderr, r.stderr[-500:])
