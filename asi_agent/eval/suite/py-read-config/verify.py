from asi_agent.eval.verifying import ANSWER, check

check("8731" in ANSWER, "the answer does not name port 8731")
