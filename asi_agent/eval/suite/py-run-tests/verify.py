from asi_agent.eval.verifying import check, number, shown

check(number(2), "expected 2 passing tests in the answer")
check(shown("2 passed, 0 failed", tool="run_tests"), "no run_tests result of this run shows 2 passing tests")
