import sys

from asi_agent.eval.verifying import check, run, text

check("calc(" not in text("orders.py").replace("calculate_total(", ""), "orders.py not renamed")
check("calculate_total" in text("main.py"), "main.py not renamed")
r = run(sys.executable, "main.py")
check(r.stdout.strip() == "3", r.stderr[-400:])
