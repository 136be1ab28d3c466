from asi_agent.eval.verifying import check, run

r = run("git", "remote", "get-url", "origin")
check(r.stdout.strip() == "https://example.com/repo.git", r.stdout + r.stderr)
