from asi_agent.eval.verifying import check, run, shown

r = run("python3", "hello.py")
check(r.stdout.strip() == "hi there", r.stdout + r.stderr)
check(shown("hi there", tool="run_terminal_cmd"), "hello.py was not run in this run")
