from asi_agent.eval.verifying import ANSWER, check

check("pass" in ANSWER.lower(), "answer does not say they pass")
