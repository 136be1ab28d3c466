from asi_agent.eval.verifying import check, number, shown

check(number(3), "the answer does not say 3")
for name in ("test_add", "test_sub", "test_mul"):
    check(shown(name), f"{name} was not seen by a tool of this run")
