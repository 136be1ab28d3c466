from asi_agent.eval.verifying import ANSWER, check

check("authenticate_user" in ANSWER, "function not named")
check("session.py" in ANSWER, "file not named")
