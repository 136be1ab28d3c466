from asi_agent.eval.verifying import check, number, shown

check(number(3), "expected 3 in the answer")
for name in ("a.py", "b.py", "c.py"):
    check(shown(f"src/{name}"), f"src/{name} was not listed by a tool of this run: the count is a guess")
