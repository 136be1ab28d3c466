import sys

from asi_agent.eval.verifying import check, run

r = run(sys.executable, "-m", "ruff", "check", "--isolated", "app.py")
check(r.returncode == 0, r.stdout[-500:])
