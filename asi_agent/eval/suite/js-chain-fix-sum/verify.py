from asi_agent.eval.verifying import check, run

r = run("node", "--test")
check(r.returncode == 0, (r.stdout + r.stderr)[-800:])
