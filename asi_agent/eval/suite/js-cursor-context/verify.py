from asi_agent.eval.verifying import ANSWER, check

check("debounce" in ANSWER, "function not named")
