from asi_agent.eval.verifying import ANSWER, check

check("apply_discount" in ANSWER and "pricing.py" in ANSWER, "call chain not explained")
