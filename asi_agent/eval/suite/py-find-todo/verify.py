from asi_agent.eval.verifying import ANSWER, check

check("net.py" in ANSWER, "core/net.py not named")
