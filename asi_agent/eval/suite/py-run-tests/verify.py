from asi_agent.eval.verifying import ANSWER, check

check("2" in ANSWER, "expected 2 passing tests")
