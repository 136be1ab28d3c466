from asi_agent.eval.verifying import check, run, text

check("def fetch_data(url)" in text("api.py"), "not renamed")
r = run("python3", "main.py")
check(r.returncode == 0 and "data from x" in r.stdout, r.stdout + r.stderr)
