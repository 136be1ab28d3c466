from asi_agent.eval.verifying import ANSWER, check, shown

check("pass" in ANSWER.lower(), "the answer does not say the tests pass")
check(shown("1 passed, 0 failed", tool="run_tests"), "no run_tests result of this run shows the test passing")
