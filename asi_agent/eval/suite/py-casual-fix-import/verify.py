from asi_agent.eval.verifying import check, run

r = run("python3", "main.py")
check(r.returncode == 0 and '{"a": 1}' in r.stdout, r.stdout + r.stderr)
