from asi_agent.eval.verifying import check, number, shown

check(number(3), "the answer does not say 3")
for name in ("Button.js", "Input.js", "Select.js"):
    check(shown(name), f"{name} was not listed by a tool of this run: the count is a guess")
