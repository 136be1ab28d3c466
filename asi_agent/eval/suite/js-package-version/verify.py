from asi_agent.eval.verifying import ANSWER, check

check("1.4.2" in ANSWER, "version not given")
