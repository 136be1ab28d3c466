from asi_agent.eval.verifying import ANSWER, check

check("circle_area" in ANSWER, "function not named")
