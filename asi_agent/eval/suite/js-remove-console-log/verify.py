from asi_agent.eval.verifying import check, run, text

check("console.log" not in text("src/format.js"), "console.log left")
r = run("node", "-e", "console.log(require('./src/format.js').money(1234))")
check(r.stdout.strip() == "$12.34", r.stdout + r.stderr)
