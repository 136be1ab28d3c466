from asi_agent.eval.verifying import ANSWER, check

check("3" in ANSWER, "expected 3")
