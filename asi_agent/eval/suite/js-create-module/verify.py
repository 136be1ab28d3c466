from asi_agent.eval.verifying import check, run

r = run("node", "-e", "console.log(require('./src/slug.js').slugify('Hello Big World'))")
check(r.stdout.strip() == "hello-big-world", r.stdout + r.stderr)
