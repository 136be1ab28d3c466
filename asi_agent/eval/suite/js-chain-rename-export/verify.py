from asi_agent.eval.verifying import check, run, text

check("getUser" not in text("src/users.js") + text("src/app.js"), "getUser left")
r = run("node", "src/app.js")
check(r.stdout.strip() == "user7", r.stdout + r.stderr)
