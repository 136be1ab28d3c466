from asi_agent.eval.verifying import ANSWER, check

check("billing/models.py" in ANSWER, "file not named")
check("5" in ANSWER, "line 5 not named")
